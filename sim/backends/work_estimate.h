// The size of a prediction, estimated before it runs: tasks and memory from what builds its
// schedule, events from the backend's cost per task. A run beyond the limits is refused with the
// figures (a 1 B partition or 10^8 iterations), instead of filling the memory or running for days.
#pragma once

#include <string>

#include "sim/backends/backend.h"
#include "sim/io/input_error.h"
#include "sim/types/schedule.h"
#include "sim/types/workload.h"

namespace scalecast {

struct WorkLimits {
  double max_events = 1e9;                // steps of the backend's run (WorkEstimate::events)
  double max_memory_bytes = 8.0 * (1ull << 30);  // of the schedule and its timeline
};

struct WorkEstimate {
  double tasks = 0;         // of the schedule (an upper bound where it is not built yet)
  double events = 0;        // steps of the backend's run: 0 until the backend is known
  double memory_bytes = 0;  // schedule, timeline and the backend's state
  std::string basis;        // how the tasks come about: "5 iterations x (322 compute + 161 comm)"
};

// Tasks and memory of the schedule build_schedule() would make, from its inputs alone; `cluster`
// is sized for the run.
WorkEstimate estimate_schedule(const Workload& workload, const Cluster& cluster, const Strategy& strategy,
                               int iterations);
// The same of a schedule at hand, and the events and memory of `backend` running it.
WorkEstimate estimate_run(const Schedule& schedule, const Backend& backend);

// Throws an InputError naming `what` ("wfbp-ps on 8 GPUs"), the figures and the limit exceeded.
void check_work(const WorkEstimate& estimate, const WorkLimits& limits, const std::string& what);

}  // namespace scalecast
