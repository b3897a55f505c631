// Builds the schedule of a run: compute tasks per layer, communication tasks per message or
// partition, and the dependencies the strategy implies, for several iterations.
#pragma once

#include "sim/types/schedule.h"
#include "sim/types/workload.h"

namespace scalecast {

struct ScheduleShape {
  int iterations = 1;
  // Also the forward pass of one more iteration (schedule.iterations is then iterations + 1):
  // what a steady-state prediction needs (steady_state.h).
  bool next_forward = false;
  // Name the tasks ("fwd conv1", "allreduce #3") for traces and schedule files; a prediction's
  // row needs none (Schedule::name_of then says "task 12").
  bool task_names = true;
};

// `cluster` must already be sized (nodes) for this run; the strategy's all-reduce algorithm is
// resolved per message (automatic -> ring or tree by size).
Schedule build_schedule(const Workload& workload, const Cluster& cluster, const Strategy& strategy,
                        const ScheduleShape& shape, const std::string& scenario_name = "");
// `iterations` whole iterations, named.
Schedule build_schedule(const Workload& workload, const Cluster& cluster, const Strategy& strategy,
                        int iterations, const std::string& scenario_name = "");

}  // namespace scalecast
