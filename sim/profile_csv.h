// Reading the per-layer profile CSV that the CUPTI profiler writes (format in profiler/README.md):
// it replaces the zoo's layers and the compute model for a model.
#pragma once

#include <map>
#include <stdexcept>
#include <string>

#include "sim/workload.h"
#include "sim/input_error.h"

namespace scalecast {

// A bad profile: what() is one line "FILE:LINE: COLUMN: expected WHAT, got 'VALUE'".
class ProfileError : public SourceError {
 public:
  using SourceError::SourceError;
};

struct Profile {
  Workload workload;                          // layers with forward_s, backward_s and grads
  std::map<std::string, std::string> metadata;  // "# key: value" lines (model, gpu, ...)
};

// Reads a profile; the workload's batch comes from "# batch_per_gpu:" when present.
Profile read_profile_csv(const std::string& path);
Profile parse_profile_csv(const std::string& text, const std::string& path);

}  // namespace scalecast
