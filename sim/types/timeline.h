// A timeline: when every task of a schedule ran, as predicted by a backend or measured by the
// executor, and the steady-state figures derived from it.
#pragma once

#include <string>
#include <vector>

#include "sim/types/schedule.h"

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
  // The scheduling policy's commits in order (collectives and pushes; the executor's rank 0),
  // so that drivers can be checked to take the same decisions.
  std::vector<int> commits;
};

// The track a task's events go on in every timeline: "compute", "collective", "push server 3";
// an executor rank's own events (rank >= 0) carry "rank 3 " before the name.
std::string track_name(const Task& task, int rank = -1);

// Where iterations begin and end in a timeline: the first event's start, and for each iteration
// the latest end of any of its tasks on any rank. `iteration_of_task[id]` is task id's iteration.
struct IterationSpans {
  double first_start_s = 0;
  std::vector<double> ends_s;
};
IterationSpans iteration_spans(const Timeline& timeline, const std::vector<int>& iteration_of_task,
                               int iterations);
std::vector<int> task_iterations(const Schedule& schedule);

// When a task ran, as a comparison sees it across ranks: from the moment the last rank started it
// to the moment the last one finished it (a backend that predicts one span for all ranks gives
// it). Tasks without events have none.
struct TaskSpan {
  bool ran = false;
  double start_s = 0, end_s = 0;
  double seconds() const { return end_s - start_s; }
};
std::vector<TaskSpan> task_spans(const Timeline& timeline, std::size_t tasks);

// Steady-state figures of one run; the iteration time is the mean over iterations after the
// first: (end of the last iteration - end of the first) / (iterations - 1).
struct IterationStats {
  double iteration_s = 0;
  double compute_s = 0;             // busy compute time of one iteration on a GPU
  double exposed_comm_s = 0;        // iteration_s - compute_s
  std::vector<double> iteration_ends_s;
};

}  // namespace scalecast
