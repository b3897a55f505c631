// A timeline: when every task of a schedule ran, as predicted by a backend or measured by the
// executor, and the steady-state figures derived from it.
#pragma once

#include <string>
#include <vector>

namespace scalecast {

struct TimelineEvent {
  int task = 0;          // id in the schedule
  int rank = -1;         // GPU rank, or -1 where every GPU ran it alike
  std::string track;     // "compute", "allreduce", "push s0", a link name, ...
  double start_s = 0;
  double end_s = 0;
};

struct Timeline {
  std::string backend;              // analytical, simgrid, executor
  std::vector<TimelineEvent> events;
  std::vector<std::string> notes;   // e.g. reductions a backend applied
};

// Steady-state figures of one run; the iteration time is the mean over iterations after the
// first: (end of the last iteration - end of the first) / (iterations - 1).
struct IterationStats {
  double iteration_s = 0;
  double compute_s = 0;             // busy compute time of one iteration on a GPU
  double exposed_comm_s = 0;        // iteration_s - compute_s
  std::vector<double> iteration_ends_s;
};

}  // namespace scalecast
