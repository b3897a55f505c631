// Reading the per-layer profile CSV that the CUPTI profiler writes (format in profiler/README.md):
// it replaces the zoo's layers and the compute model for a model.
#pragma once

#include <map>
#include <stdexcept>
#include <string>

#include "sim/types/workload.h"

namespace scalecast {

struct Profile {
  std::string path;
  Workload workload;                          // layers with forward_s, backward_s and grads
  std::map<std::string, std::string> metadata;  // "# key: value" lines (model, gpu, ...)
  std::map<std::string, int> metadata_line;     // the line of each, for errors

  // "PATH:LINE: KEY" of a metadata line, to begin an error message with.
  std::string where(const std::string& key) const;
};

// Reads a profile; the workload's batch comes from "# batch_per_gpu:" when present. Gradient
// element counts are the bytes over `grad_element_bytes` (4 for fp32 gradients, 2 for fp16);
// bytes that are no multiple of it are refused. The values of batch_per_gpu, step_s,
// precision and optimizer are checked (a positive integer, seconds, fp32|tf32|fp16, sgd|adam).
Profile read_profile_csv(const std::string& path, int grad_element_bytes);
Profile parse_profile_csv(const std::string& text, const std::string& path,
                          int grad_element_bytes);

}  // namespace scalecast
