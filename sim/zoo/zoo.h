// The model zoo: layer-by-layer descriptions of well-known networks built from their shapes,
// so parameter counts, gradient tensors and FLOPs are exact rather than typed-in totals.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "sim/workload.h"

namespace scalecast::zoo {

// Settings a model may take; each model reads the ones that apply to it.
struct ModelOptions {
  int image_size = 224;      // CNNs: input height = width
  int num_classes = 1000;    // CNN classifier outputs
  int seq_len = 128;         // transformers: tokens per sequence
  int vocab_size = 30528;    // transformers: vocabulary (padded)
  int bytes_per_element = 4; // gradient precision (fp32 = 4, fp16 = 2)
};

struct ModelInfo {
  std::string name;         // e.g. "resnet50"
  std::string description;  // one line, with the reference definition
  std::string sample_unit;  // "images" or "sequences"
};

// Names of every model in the zoo, sorted.
std::vector<ModelInfo> list_models();
bool has_model(const std::string& name);
// Builds the layers (FLOPs, memory traffic, gradient tensors). Times are left at zero for the
// compute model or a profile to fill. Throws std::invalid_argument for an unknown name.
Workload build_model(const std::string& name, const ModelOptions& options);

}  // namespace scalecast::zoo
