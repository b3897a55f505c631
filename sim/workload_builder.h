// Turns a scenario's model settings into a timed workload: zoo layers through the compute model
// compute model (optionally scaled to a measured throughput), or a profile CSV as measured.
#pragma once

#include "sim/scenario.h"
#include "sim/workload.h"

namespace scalecast {

// Where the compute times come from: a measured profile, the compute model scaled to a measured
// single-GPU throughput, or the compute model alone.
enum class ComputeOrigin { profile, measured_throughput, model };

struct BuiltWorkload {
  Workload workload;
  double scale_factor = 1;   // applied to the compute model's times to meet the measured throughput
  std::string source;        // "compute model on v100-pcie, scaled x1.2 to ...", "profile PATH; ..."
  ComputeOrigin origin = ComputeOrigin::model;
};

BuiltWorkload build_workload(const Scenario& scenario);

}  // namespace scalecast
