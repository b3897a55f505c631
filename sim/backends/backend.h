// The interface every backend implements: take a schedule, return the timeline of when each
// task ran (sim/backends/backend_registry.h lists them by name).
#pragma once

#include <string>
#include <vector>

#include "sim/types/schedule.h"
#include "sim/types/timeline.h"

namespace scalecast {

// What a backend's run of a schedule costs, estimated before it runs (sim/backends/work_estimate.h).
struct RunCost {
  double events = 0;        // steps: events, and for links shared by flows each link update
  double memory_bytes = 0;  // the backend's own state, beyond the schedule and the timeline
  std::string basis;        // how the backend's run comes to that size (the mode, what it folds)
};

class Backend {
 public:
  virtual ~Backend() = default;
  virtual std::string name() const = 0;
  virtual Timeline run(const Schedule& schedule) const = 0;
  virtual RunCost cost(const Schedule& schedule) const = 0;
};

// What a user passes to a backend beyond the schedule: SimGrid's own options (--cfg=KEY:VALUE,
// --log=CATEGORY.thres:LEVEL), which only the SimGrid backends take.
struct BackendSettings {
  std::vector<std::string> simgrid_args;
};

}  // namespace scalecast
