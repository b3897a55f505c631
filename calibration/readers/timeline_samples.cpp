// All-reduce tasks of a measured timeline as samples: op, bytes, algorithm, the job's nodes and
// GPUs, and the span from the last rank's start to the last rank's end.
#include "calibration/readers/timeline_samples.h"

#include "sim/formats/timeline_json.h"
#include "sim/io/input_error.h"

namespace scalecast::calibration {

std::vector<CollectiveSample> read_timeline_samples(const std::string& path) {
  const TimelineFile f = read_timeline_json(path);
  const std::vector<TaskSpan> spans = task_spans(f.timeline, f.tasks.size());
  std::vector<CollectiveSample> out;
  for (const TimelineTask& t : f.tasks) {
    if (t.kind != TaskKind::comm || t.op != CommOp::allreduce || !spans[t.id].ran || !(spans[t.id].seconds() > 0))
      continue;
    CollectiveSample s;
    s.where = path + ": task " + std::to_string(t.id) + " (" + t.name + ")";
    s.op = collectives::CollectiveOp::all_reduce;
    s.nodes = f.nodes;
    s.gpus_per_node = f.gpus / f.nodes;
    s.bytes = t.bytes;
    s.time_s = spans[t.id].seconds();
    s.algorithm = t.algorithm;
    // The executor names its transport in the backend ("executor-gloo", "executor-nccl").
    s.library = f.timeline.backend == "executor-gloo" ? CollectiveLibrary::gloo : CollectiveLibrary::nccl;
    out.push_back(s);
  }
  if (out.empty()) throw InputError(InputKind::file, path + ": expected measured all-reduce tasks, got none");
  return out;
}

}  // namespace scalecast::calibration
