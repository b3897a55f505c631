// Moves a profile measured on one GPU to another: each layer's measured times scale by the
// compute model's time for the zoo layers it measured on the target over that on the measured GPU.
#pragma once

#include "sim/compute/compute_model.h"
#include "sim/catalogs/gpu_catalog.h"
#include "sim/types/workload.h"

namespace scalecast {

struct GpuScaling {
  int timed = 0;            // profile layers with forward or backward time
  int matched = 0;          // of those, scaled by the zoo layers they measured
  double model_ratio = 1;   // the zoo model's forward + backward, target / measured: the others' factor
};

// Scales the forward and backward times of `profile`'s layers, recorded on `measured`, to
// `target`. `zoo` is the model the profile recorded, with the profile's batch; its layers are
// timed by the compute model (`params`) on both GPUs, and each profile layer (a compute-bound
// product, a memory-bound kernel, a launch-bound small one) takes its own zoo layers' ratio
// (sim/compute/profile_zoo_match.h), or the whole model's when no zoo layer with time matched it.
GpuScaling scale_profile_layers(Workload& profile, const Workload& zoo, const GpuSpec& measured,
                                const GpuSpec& target, const ComputeModelParams& params);

}  // namespace scalecast
