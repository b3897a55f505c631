// Matches profile layers to zoo layers by name and copies their gradient tensors; a name
// used by several zoo layers (a module called more than once) gathers all their tensors.
#include "profiler/model_gradients.h"

#include <map>
#include <set>

namespace scalecast::profiler {

std::vector<std::string> fill_gradients(Profile& profile, const Workload& model) {
  std::map<std::string, std::vector<const Layer*>> by_name;
  for (const Layer& layer : model.layers) by_name[layer.name].push_back(&layer);
  std::set<std::string> matched;
  for (ProfileLayer& layer : profile.layers) {
    layer.grad_tensors = 0;
    layer.grad_bytes = 0;
    layer.grad_tensor_bytes.clear();
    const auto it = by_name.find(layer.name);
    if (it == by_name.end()) continue;
    matched.insert(layer.name);
    // The backward pass reaches later calls of a module first.
    for (auto call = it->second.rbegin(); call != it->second.rend(); ++call) {
      for (const GradTensor& grad : (*call)->grads) {
        ++layer.grad_tensors;
        layer.grad_bytes += grad.bytes;
        layer.grad_tensor_bytes.push_back(grad.bytes);
      }
    }
  }
  profile.model = model.model;
  profile.has_grad_tensor_bytes = true;

  std::vector<std::string> warnings;
  std::vector<std::string> missing;
  int64_t missing_bytes = 0;
  for (const Layer& layer : model.layers) {
    if (layer.grads.empty() || matched.count(layer.name) > 0) continue;
    missing.push_back(layer.name);
    missing_bytes += layer.grad_bytes();
  }
  if (!missing.empty()) {
    std::string names;
    for (size_t i = 0; i < missing.size() && i < 5; ++i) names += (i ? ", " : "") + missing[i];
    if (missing.size() > 5) names += ", ...";
    warnings.push_back(std::to_string(missing.size()) + " layers of model '" + model.model +
                       "' with gradients (" + std::to_string(missing_bytes) +
                       " bytes) match no profiled layer: " + names);
  }
  return warnings;
}

}  // namespace scalecast::profiler
