// Task ids follow the order tasks are appended, so every dependency names an earlier task.
#include "sim/schedules/task_appender.h"

namespace scalecast {

TaskAppender::TaskAppender(const Workload& w, Schedule& out, bool names) : out_(out), names_(names) {
  // A prediction's schedule goes unnamed: no name is composed at all.
  if (!names) {
    forward_names_.assign(w.layers.size(), -1);
    backward_names_.assign(w.layers.size(), -1);
    return;
  }
  for (const Layer& l : w.layers) {
    forward_names_.push_back(name("fwd " + l.name));
    backward_names_.push_back(name("bwd " + l.name));
  }
  optimizer_name_ = name("optimizer");
}

int TaskAppender::name(const std::string& text) { return names_ ? out_.add_name(text) : -1; }

Task& TaskAppender::add(TaskKind kind, int name, int iteration) {
  Task& t = out_.tasks.emplace_back();
  t.id = static_cast<int>(out_.tasks.size()) - 1;
  t.kind = kind;
  t.name = name;
  t.iteration = iteration;
  return t;
}

}  // namespace scalecast
