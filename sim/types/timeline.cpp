// Track names and iteration boundaries, computed here for every backend, the executor, compare
// and the steady state alike.
#include "sim/types/timeline.h"

#include <algorithm>
#include <stdexcept>

#include "sim/io/input_error.h"

namespace scalecast {

std::string track_name(const Task& t, int rank) {
  std::string name;
  if (t.kind != TaskKind::comm) return "compute";  // compute is one track per GPU already
  if (t.op == CommOp::push || t.op == CommOp::pull)
    name = to_string(t.op) + " server " + std::to_string(t.server);
  else
    name = "collective";
  return rank >= 0 ? "rank " + std::to_string(rank) + " " + name : name;
}

IterationSpans iteration_spans(const Timeline& tl, const std::vector<int>& iteration_of_task, int iterations) {
  IterationSpans out;
  out.ends_s.assign(std::max(0, iterations), 0.0);
  bool any = false;
  for (const TimelineEvent& e : tl.events) {
    if (e.task < 0 || e.task >= static_cast<int>(iteration_of_task.size()))
      throw InputError("timeline event of task " + std::to_string(e.task) + ", which does not exist");
    const int it = iteration_of_task[e.task];
    if (it < 0 || it >= iterations) throw InputError("task " + std::to_string(e.task) + " in no iteration");
    out.ends_s[it] = std::max(out.ends_s[it], e.end_s);
    out.first_start_s = any ? std::min(out.first_start_s, e.start_s) : e.start_s;
    any = true;
  }
  return out;
}

std::vector<TaskSpan> task_spans(const Timeline& tl, std::size_t tasks) {
  std::vector<TaskSpan> out(tasks);
  for (const TimelineEvent& e : tl.events) {
    TaskSpan& s = out.at(static_cast<std::size_t>(e.task));
    if (!s.ran) s = TaskSpan{true, e.start_s, e.end_s};
    s.start_s = std::max(s.start_s, e.start_s);
    s.end_s = std::max(s.end_s, e.end_s);
  }
  return out;
}

std::vector<int> task_iterations(const Schedule& s) {
  std::vector<int> out;
  out.reserve(s.tasks.size());
  for (const Task& t : s.tasks) out.push_back(t.iteration);
  return out;
}

}  // namespace scalecast
