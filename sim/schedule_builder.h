// Builds the schedule of a run: compute tasks per layer, communication tasks per message or
// partition, and the dependencies the strategy implies, for several iterations.
#pragma once

#include "sim/schedule.h"
#include "sim/workload.h"

namespace scalecast {

// `cluster` must already be sized (nodes) for this run; the strategy's all-reduce algorithm is
// resolved per message (automatic -> ring or tree by size). With `next_forward`, the schedule
// also holds the forward pass of one more iteration (schedule.iterations is then iterations + 1):
// what a steady-state prediction needs (steady_state.h).
Schedule build_schedule(const Workload& workload, const Cluster& cluster, const Strategy& strategy,
                        int iterations, const std::string& scenario_name = "", bool next_forward = false);

}  // namespace scalecast
