// The schedule of sharded data parallel (ZeRO-1/2/3, FSDP): per-unit all-gathers of parameters
// ahead of the compute that needs them, reduce-scatters of gradients, the step on the shard.
#pragma once

#include "sim/types/schedule.h"
#include "sim/types/workload.h"

namespace scalecast {

// Fills `out` (its header already set by build_schedule, out.iterations included) for a strategy
// whose sharding is not none: `iterations` whole ones, then the next one's forward pass where
// `next_forward` (sim/schedules/schedule_builder.h, ScheduleShape); `cluster` is sized for the run.
void build_sharded_tasks(const Workload& workload, const Cluster& cluster, const Strategy& strategy, int iterations,
                         bool next_forward, bool task_names, Schedule& out);

}  // namespace scalecast
