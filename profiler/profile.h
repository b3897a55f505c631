// A per-layer profile of one training iteration, as written to the profile CSV: forward and
// backward GPU time per layer (mean and standard deviation) and each layer's gradient tensors.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace scalecast::profiler {

struct ProfileLayer {
  std::string name;
  double forward_ms = 0;  // per iteration, whole batch
  double backward_ms = 0;
  double forward_std_ms = 0;
  double backward_std_ms = 0;
  int64_t grad_tensors = 0;
  int64_t grad_bytes = 0;
  std::vector<int64_t> grad_tensor_bytes;  // in the order the backward pass produces them
};

struct Profile {
  std::string model;                   // empty: unknown (no `# model:` line)
  int batch_per_gpu = 0;               // 0: unknown
  std::string gpu;                     // empty: unknown
  int iterations = 0;                  // iterations measured (after warm-up)
  int warmup = 0;                      // iterations dropped as warm-up
  double step_s = 0;                   // mean wall time of a measured iteration
  std::string precision;               // "fp32" or "fp16" when known (the gradients' type)
  std::string optimizer;               // "sgd" or "adam" when known
  bool has_grad_tensor_bytes = false;  // write the grad_tensor_bytes column
  std::vector<ProfileLayer> layers;    // forward order
};

}  // namespace scalecast::profiler
