// The id, kind, name and iteration of a task in schedule and timeline JSON, read one way for both.
#include "sim/formats/task_json.h"

#include <limits>

namespace scalecast {

TaskIdentity read_task_identity(const JsonReader& j, int index, int iterations,
                                const std::vector<std::string>& comm_keys,
                                const std::vector<std::string>& compute_keys) {
  TaskIdentity t;
  const JsonReader id = j.require("id");
  t.id = id.integer(0, std::numeric_limits<int>::max());
  if (t.id != index) id.fail(std::to_string(index) + " (its place in the list)");
  t.kind = j.require("kind").enumeration(
      "a task kind", {TaskKind::forward, TaskKind::backward, TaskKind::optimizer, TaskKind::comm});
  j.check_keys(t.kind == TaskKind::comm ? comm_keys : compute_keys);
  t.name = j.require("name").string();
  t.iteration = j.require("iteration").integer(0, iterations - 1);
  return t;
}

}  // namespace scalecast
