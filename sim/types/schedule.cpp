// Names of tasks, task kinds and communication operations, as written in schedule files and
// traces. Parsing is the inverse of printing and rejects anything else.
#include "sim/types/schedule.h"

#include <stdexcept>

#include "sim/io/input_error.h"

namespace scalecast {

std::string Schedule::name_of(const Task& t) const {
  if (t.name < 0 || t.name >= static_cast<int>(names.size())) return "task " + std::to_string(t.id);
  return names[static_cast<std::size_t>(t.name)];
}

int Schedule::add_name(std::string name) {
  names.push_back(std::move(name));
  return static_cast<int>(names.size()) - 1;
}

std::string to_string(TaskKind k) {
  switch (k) {
    case TaskKind::forward: return "forward";
    case TaskKind::backward: return "backward";
    case TaskKind::optimizer: return "optimizer";
    case TaskKind::comm: return "comm";
  }
  return "forward";
}

std::string to_string(CommOp op) {
  switch (op) {
    case CommOp::allreduce: return "allreduce";
    case CommOp::push: return "push";
    case CommOp::pull: return "pull";
    case CommOp::reduce: return "reduce";
    case CommOp::broadcast: return "broadcast";
    case CommOp::all_gather: return "all_gather";
    case CommOp::reduce_scatter: return "reduce_scatter";
  }
  return "allreduce";
}

std::string to_string(CommGroup g) {
  switch (g) {
    case CommGroup::all: return "all";
    case CommGroup::node: return "node";
    case CommGroup::rail: return "rail";
  }
  return "all";
}

TaskKind parse_task_kind(const std::string& text) {
  for (TaskKind k : {TaskKind::forward, TaskKind::backward, TaskKind::optimizer, TaskKind::comm})
    if (to_string(k) == text) return k;
  throw InputError("unknown task kind '" + text + "'");
}

CommOp parse_comm_op(const std::string& text) {
  for (CommOp op : {CommOp::allreduce, CommOp::push, CommOp::pull, CommOp::reduce, CommOp::broadcast,
                    CommOp::all_gather, CommOp::reduce_scatter})
    if (to_string(op) == text) return op;
  throw InputError("unknown communication op '" + text + "'");
}

CommGroup parse_comm_group(const std::string& text) {
  for (CommGroup g : {CommGroup::all, CommGroup::node, CommGroup::rail})
    if (to_string(g) == text) return g;
  throw InputError("unknown communication group '" + text + "'");
}

}  // namespace scalecast
