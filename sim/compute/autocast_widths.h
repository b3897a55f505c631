// What torch.autocast runs each layer in at a half-width precision, after PyTorch's autocast op
// reference: each layer's input and output widths, shared by the compute model and the memory walk.
#pragma once

#include <string>
#include <vector>

#include "sim/types/workload.h"

namespace scalecast {

// Products autocast runs at half width (conv, linear, attention's matmuls), casting an fp32 input.
bool autocast_product(const std::string& kind);
// Ops that run in fp32 under autocast: those PyTorch lists as autocasting to float32 (softmax,
// layer_norm; log_softmax is the loss's), Hugging Face's RMSNorm (computed in fp32), and an
// embedding gather of fp32 weights.
bool autocast_fp32(const std::string& kind);

// Projections that read the same input as the one before them: `opens_branch` names the first
// (BERT's query, LLaMA's q_proj and gate_proj), `reads_branch_input` those after it (key, value;
// k_proj, v_proj; up_proj).
bool opens_branch(const std::string& layer_name);
bool reads_branch_input(const std::string& layer_name);

struct AutocastWidth {
  double input = 4;         // bytes per element of what the layer reads
  double output = 4;        // ... and writes
  bool casts_input = false; // one cast kernel first: fp32 to half for a product, half to fp32 for
                            // softmax and layer_norm (RMSNorm's and the embedding's are their own)
};

// Each layer's widths in forward order. A layer reads the one before it, except the projections
// that share the input of the one before them (BERT's key and value after the query, LLaMA's k, v
// after q and up after gate: each casts that input anew). Products write half width; fp32 ops
// fp32; a residual add is fp32 once an embedding has put an fp32 stream in the model (type
// promotion with the branch's half-width output), else its input's; the rest keep their input's.
// The network's input is fp32 (images, or the embedding's gather).
std::vector<AutocastWidth> autocast_widths(const Workload& workload);

}  // namespace scalecast
