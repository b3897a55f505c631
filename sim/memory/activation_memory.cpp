// Saved tensors by layer kind, after PyTorch's derivatives (tools/autograd/derivatives.yaml):
// convolution, linear/matmul, batch norm, layer norm, GELU, SiLU, mul and pooling save their
// input; ReLU (in place in torchvision), softmax and tanh save their output; dropout saves a
// bool mask (1 B per element); max pooling saves int64 indices; add saves nothing. A tensor is
// counted once however many layers keep it. The walk follows the zoo's forward order: a layer's
// input is the previous layer's output, except a ResNet shortcut ("downsample.0"), whose input is
// the block's input (already kept by the block's first convolution).
#include "sim/memory/activation_memory.h"

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "sim/compute/autocast_widths.h"
#include "sim/compute/checkpoint_policy.h"
#include "sim/zoo/layers.h"

namespace scalecast {
namespace {

constexpr double kMaskBytes = 1;     // PyTorch's dropout mask: torch.bool
constexpr double kIndexBytes = 8;    // max_pool2d_with_indices: int64 indices
constexpr double kFp32 = 4;
constexpr double kFp16 = 2;

struct Tensor {
  double elements = 0;
  double bytes = 4;     // per element
  bool saved = false;
  int fp16_copies = 0;  // autocast: fp16 casts kept by matmuls that read this fp32 tensor
  double total() const { return (saved ? elements * bytes : 0) + fp16_copies * elements * kFp16; }
};

bool saves_input(const std::string& kind) {
  static const char* kinds[] = {"conv", "linear", "batchnorm", "layernorm", "rmsnorm", "gelu",
                                "silu", "mul", "maxpool", "avgpool", "attention"};
  return std::any_of(std::begin(kinds), std::end(kinds), [&](const char* k) { return kind == k; });
}
bool saves_output(const std::string& kind) {
  return kind == "relu" || kind == "softmax" || kind == "tanh";
}
// The loss reads these logits: cross entropy's log_softmax keeps its output.
bool loss_head(const Workload& w, std::size_t i) {
  const std::string& n = w.layers[i].name;
  return i + 1 == w.layers.size() || n == "lm_head" || n.ends_with(".decoder");
}

}  // namespace

ActivationMemory activation_memory(const Workload& w, const ModelSettings& model) {
  ActivationMemory out;
  if (w.layers.empty()) return out;
  const bool fp16 = half_width(model.precision);
  const bool autocast = fp16 && model.mixed_precision == "autocast";
  const bool fused = model.attention == "fused";
  const double element = fp16 ? kFp16 : kFp32;
  // Each tensor at the width its layer writes it: autocast's (compute/autocast_widths.h, the
  // compute model's too), else the training precision.
  const std::vector<AutocastWidth> widths = autocast ? autocast_widths(w) : std::vector<AutocastWidth>{};

  std::vector<Tensor> tensors;
  std::vector<int> tensor_of(w.layers.size(), -1);
  std::vector<double> extra(w.layers.size(), 0);  // masks, indices, log-sum-exp, the loss
  bool in_fused_attention = false;
  // Selective checkpointing drops what the attention core writes before its context product:
  // the scores, the softmax output, its dropout mask and dropped probabilities (or, fused, the
  // log-sum-exp); the context, the core's output, stays kept for the projection that reads it.
  std::vector<bool> in_core(w.layers.size(), false);
  bool core = false;
  int branch_input = -1;  // the input of the last query / gate projection
  const Layer& first = w.layers.front();
  const double first_in = zoo::input_elements(first);
  // The network's input: an image batch that the first convolution keeps (token indices: none).
  tensors.push_back({first.kind == "conv" ? first_in : 0, element, first.kind == "conv", 0});
  int prev = 0;
  for (std::size_t i = 0; i < w.layers.size(); ++i) {
    const Layer& l = w.layers[i];
    const std::string& k = l.kind;
    if (k == "cross_entropy") {  // what it keeps is counted with the head whose logits it reads
      tensor_of[i] = tensor_of[i - 1];
      continue;
    }
    const double elements = static_cast<double>(l.output_elements);
    const bool shortcut = l.name.ends_with("downsample.0");
    const int input = shortcut ? -1 : prev;
    // Fused attention (flash / SDPA): scores, probabilities and their dropout never reach memory;
    // the kernel keeps its output and one fp32 log-sum-exp per head and query.
    if (fused && k == "attention" && l.name.ends_with("scores")) in_fused_attention = true;
    if (in_fused_attention && k == "attention" && l.name.ends_with("context")) in_fused_attention = false;
    if (k == "attention") core = l.name.ends_with("scores");
    in_core[i] = core;
    int t;
    bool skipped = false;  // a fused kernel's intermediate: never in memory, nor its gradient
    const bool in_place = input >= 0 && (k == "relu" || (k == "add" && w.layers[i - 1].kind == "batchnorm"));
    if (in_place) {
      t = input;
    } else {
      t = static_cast<int>(tensors.size());
      skipped = in_fused_attention;
      tensors.push_back({skipped ? 0 : elements, autocast ? widths[i].output : element, false, 0});
      if (skipped && k == "attention") {
        // The log-sum-exp: heads x queries = scores / keys.
        const int64_t seq = std::max(1, model.options.seq_len);
        extra[i] += elements / static_cast<double>(seq) * kFp32;
      }
    }
    tensor_of[i] = t;
    // Projections that read the same input as the one before them (BERT's key and value after the
    // query, LLaMA's k/v after q and up after gate): under autocast each casts that fp32 input anew.
    if (opens_branch(l.name)) {
      branch_input = input;
    } else if (autocast && branch_input >= 0 && reads_branch_input(l.name)) {
      if (tensors[branch_input].bytes == kFp32) ++tensors[branch_input].fp16_copies;
    }
    if (saves_input(k) && input >= 0) {
      Tensor& in = tensors[input];
      if (autocast && autocast_product(k) && in.bytes == kFp32) ++in.fp16_copies;
      else in.saved = true;
    }
    if (saves_output(k)) tensors[t].saved = true;
    if (k == "dropout" && !in_fused_attention) extra[i] += elements * kMaskBytes;
    if (k == "maxpool") extra[i] += elements * kIndexBytes;
    const bool loss = loss_head(w, i);
    // The loss keeps its log-softmax output over the logits, at their width (fp32 under autocast,
    // which upcasts them, or where the code does: model.loss fp32); fused, it keeps the logits
    // themselves (and a per-token log-sum-exp, a vocabulary's fraction of them, not counted).
    const bool fused_loss = loss && model.loss == "fused";
    const double loss_bytes = autocast || !fp16 || model.loss == "fp32" ? kFp32 : element;
    if (loss && !fused_loss) extra[i] += elements * loss_bytes;
    if (fused_loss) tensors[t].saved = true;
    if (!skipped)
      out.largest_tensor_bytes =
          std::max(out.largest_tensor_bytes, elements * (loss && !fused_loss ? loss_bytes : tensors[t].bytes));
    // The logits go to the loss: the next layer (BERT's next-sentence head) reads another tensor.
    prev = loss ? -1 : t;
  }
  // Each tensor's bytes go to the block of the layer that wrote it.
  std::map<std::string, double> block_saved;
  std::map<std::string, double> block_input;
  double outside = tensors.front().total();
  std::vector<bool> counted(tensors.size(), false);
  counted[0] = true;
  const Recompute how{model.activation_checkpointing, model.checkpoint_every, fused};
  const bool selective = how.mode == Checkpointing::selective;
  const bool op = how.mode == Checkpointing::selective_op;
  const std::vector<bool> kept = op ? compute::kept_by_op_policy(w, fused) : std::vector<bool>{};
  double recompute = 0;  // the largest block or attention core recomputed at once
  double core_bytes = 0;
  for (std::size_t i = 0; i < w.layers.size(); ++i) {
    const std::string block = compute::checkpointed_block(w.layers[i].name, how);
    double bytes = extra[i];
    const int t = tensor_of[i];
    const bool first_use = !counted[t];
    if (first_use) {
      counted[t] = true;
      bytes += tensors[t].total();
    }
    if (op && !block.empty() && kept[i]) {
      // What torchtitan's policy keeps stays whatever reads it; the rest of the block runs again.
      const double output = first_use ? tensors[t].elements * tensors[t].bytes : 0;
      outside += extra[i] + output;
      bytes -= extra[i] + (first_use && tensors[t].saved ? output : 0);
    }
    if (selective && in_core[i]) {
      core_bytes = (i > 0 && in_core[i - 1] ? core_bytes : 0) + bytes;
      recompute = std::max(recompute, core_bytes);
      continue;
    }
    if (block.empty()) {
      outside += bytes;
      continue;
    }
    if (!block_input.count(block)) {
      // Checkpointing keeps the block's input (torch.utils.checkpoint saves its arguments).
      const int before = i > 0 ? tensor_of[i - 1] : 0;
      block_input[block] = tensors[before].elements * tensors[before].bytes;
    }
    block_saved[block] += bytes;
  }
  for (const auto& [block, bytes] : block_saved) {
    outside += block_input[block];
    recompute = std::max(recompute, bytes);
  }
  out.saved_bytes = outside;
  // At the peak of the backward pass: the incoming gradient of the largest tensor and the one its
  // layer produces; with checkpointing also the block or attention core being recomputed.
  out.transient_bytes = 2 * out.largest_tensor_bytes + recompute;
  return out;
}

}  // namespace scalecast
