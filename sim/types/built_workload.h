// A timed workload with where its compute times came from: what the workload builder and the
// profile reader both hand back.
#pragma once

#include <string>

#include "sim/types/workload.h"

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

}  // namespace scalecast
