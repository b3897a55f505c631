// Fills a profile's gradient columns from a zoo model: each profile layer takes the gradient
// tensors of the model layers with the same name (torchvision / HF module paths).
#pragma once

#include <string>
#include <vector>

#include "profiler/profile.h"
#include "sim/types/workload.h"

namespace scalecast::profiler {

// Sets grad_tensors, grad_bytes and grad_tensor_bytes of every profile layer, the profile's
// model name, and turns on the grad_tensor_bytes column. Returns warnings: model layers with
// gradients that no profile layer matched (their gradients would be lost).
std::vector<std::string> fill_gradients(Profile& profile, const Workload& model);

}  // namespace scalecast::profiler
