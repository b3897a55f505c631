// What the schedule builders share: a schedule's tasks appended in id order with their names
// (kept once each, or none where tasks go unnamed) and the dependencies between them.
#pragma once

#include <string>
#include <vector>

#include "sim/types/schedule.h"
#include "sim/types/workload.h"

namespace scalecast {

class TaskAppender {
 protected:
  // Names every layer's forward and backward task and the optimizer's.
  TaskAppender(const Workload& workload, Schedule& out, bool names);

  // A name's index in the schedule's names (-1 when tasks go unnamed).
  int name(const std::string& text);
  Task& add(TaskKind kind, int name, int iteration);
  static void link(Task& task, int dep) {
    if (dep >= 0) task.deps.push_back(dep);
  }

  Schedule& out_;
  bool names_;
  // Indexes in Schedule::names, alike in every iteration.
  std::vector<int> forward_names_, backward_names_;
  int optimizer_name_ = -1;
};

}  // namespace scalecast
