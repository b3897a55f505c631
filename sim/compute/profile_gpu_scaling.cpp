// Per-layer scaling of a profile between catalog GPUs by the compute model's ratio for the zoo
// layers each profile row measured (docs/MODEL.md, "Profiles").
#include "sim/compute/profile_gpu_scaling.h"

#include "sim/compute/profile_zoo_match.h"

namespace scalecast {
namespace {

Workload timed_on(const Workload& zoo, const GpuSpec& gpu, const ComputeModelParams& params) {
  Workload w = zoo;
  apply_compute_model(w, gpu, params);
  return w;
}

}  // namespace

GpuScaling scale_profile_layers(Workload& profile, const Workload& zoo, const GpuSpec& measured,
                                const GpuSpec& target, const ComputeModelParams& params) {
  const Workload from = timed_on(zoo, measured, params);
  const Workload to = timed_on(zoo, target, params);
  GpuScaling out;
  out.model_ratio = (to.forward_s() + to.backward_s()) / (from.forward_s() + from.backward_s());
  const auto matches = match_zoo_layers(profile, zoo);
  for (std::size_t i = 0; i < profile.layers.size(); ++i) {
    Layer& layer = profile.layers[i];
    if (layer.forward_s + layer.backward_s <= 0) continue;
    ++out.timed;
    double from_s = 0, to_s = 0;
    for (const std::size_t z : matches[i]) {
      from_s += from.layers[z].forward_s + from.layers[z].backward_s;
      to_s += to.layers[z].forward_s + to.layers[z].backward_s;
    }
    const bool matched = from_s > 0;
    out.matched += matched;
    const double ratio = matched ? to_s / from_s : out.model_ratio;
    layer.forward_s *= ratio;
    layer.backward_s *= ratio;
  }
  return out;
}

}  // namespace scalecast
