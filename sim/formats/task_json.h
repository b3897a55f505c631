// What every task of a schedule or timeline file starts with: its id (its place in the list),
// its kind, and, once the keys its kind allows are checked, its name and iteration.
#pragma once

#include <string>
#include <vector>

#include "sim/io/json_reader.h"
#include "sim/types/schedule.h"

namespace scalecast {

struct TaskIdentity {
  int id = 0;
  TaskKind kind = TaskKind::forward;
  std::string name;
  int iteration = 0;
};

// Reads task `index` of a file of `iterations` iterations; `comm_keys` and `compute_keys` are the
// keys a task of that kind may have. Throws InputError naming the file and the JSON pointer.
TaskIdentity read_task_identity(const JsonReader& j, int index, int iterations,
                                const std::vector<std::string>& comm_keys,
                                const std::vector<std::string>& compute_keys);

}  // namespace scalecast
