// Turns a scenario's model settings into a timed workload: zoo layers through the
// compute model (optionally scaled to a measured throughput), or a profile CSV as measured.
#pragma once

#include "sim/types/built_workload.h"
#include "sim/scenario/scenario.h"

namespace scalecast {

BuiltWorkload build_workload(const Scenario& scenario);

}  // namespace scalecast
