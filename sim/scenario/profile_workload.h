// A profile CSV as a scenario's workload: what the profile records (precision, optimizer, GPU,
// batch, step time) is checked against or scaled to the scenario, never silently dropped.
#pragma once

#include "sim/types/built_workload.h"
#include "sim/compute/compute_model.h"
#include "sim/scenario/scenario.h"

namespace scalecast {

// Reads s.model.profile. Throws an InputError (naming the profile's line and key) when it records
// a precision or optimizer other than the scenario's, or a step_s below its layers' forward +
// backward. Measured on another catalog GPU, its layers scale to the scenario's by the compute
// model's per-layer ratio (sim/compute/profile_gpu_scaling.h), which needs model.name to be the zoo model
// profiled (else refused). Layer times scale by scenario batch / profiled batch; the optimizer
// step is the step time outside the layers (step_s), else the compute model's on the scenario's
// GPU (`params`).
BuiltWorkload profile_workload(const Scenario& s, const ComputeModelParams& params);

}  // namespace scalecast
