// Writing and strictly reading timeline JSON: a summary of the schedule's tasks and every event,
// so a file from any backend or from the executor can be compared with another of one schedule.
#include "sim/formats/timeline_json.h"

#include <limits>

#include "sim/io/json_reader.h"
#include "sim/io/json_text.h"
#include "sim/formats/task_json.h"

#include "sim/collectives/allreduce_algorithm.h"

namespace scalecast {
namespace {

using nlohmann::json;
using nlohmann::ordered_json;

// Times of events: finite, and within about 30 years of the run's start either way.
Bound event_time() { return {-1e9, true, 1e9, false, "in [-1e9, 1e9] s"}; }

TimelineEvent event_from(const JsonReader& j, int tasks) {
  j.check_keys({"task", "rank", "track", "start_s", "end_s"});
  TimelineEvent e;
  e.task = j.require("task").integer(0, tasks - 1);
  e.rank = j.require("rank").integer(-1, 2 * ranges::kMaxGpus);
  e.track = j.require("track").string();
  e.start_s = j.require("start_s").number(event_time());
  const JsonReader end = j.require("end_s");
  e.end_s = end.number(event_time());
  if (e.end_s < e.start_s) end.fail("an end no earlier than start_s");
  return e;
}

TimelineTask task_from(const JsonReader& j, int index, int iterations) {
  const TaskIdentity identity = read_task_identity(
      j, index, iterations, {"id", "kind", "name", "iteration", "op", "bytes", "algorithm"},
      {"id", "kind", "name", "iteration"});
  TimelineTask t;
  t.id = identity.id;
  t.kind = identity.kind;
  t.name = identity.name;
  t.iteration = identity.iteration;
  const bool comm = t.kind == TaskKind::comm;
  if (comm) {
    t.op = j.require("op").enumeration(
        "an operation", {CommOp::allreduce, CommOp::push, CommOp::pull, CommOp::reduce, CommOp::broadcast,
                         CommOp::all_gather, CommOp::reduce_scatter});
    t.bytes = j.require("bytes").number(ranges::size_or_none());
  }
  if (comm && t.op == CommOp::allreduce) {
    const JsonReader algorithm = j.require("algorithm");
    t.algorithm = algorithm.string();
    if (!collectives::find_allreduce(t.algorithm))
      algorithm.fail("a registered all-reduce (" + collectives::allreduce_names(false) + ")");
  }
  return t;
}

TimelineFile read_timeline(const JsonReader& j) {
  j.require("format").choice("a file format", {"scalecast-timeline"});
  const JsonReader version = j.require("version");
  if (version.integer(0, std::numeric_limits<int>::max()) != kTimelineFormatVersion)
    version.fail(std::to_string(kTimelineFormatVersion) + " (the version this scalecast reads)");
  j.check_keys({"format", "version", "backend", "scenario", "model", "method", "gpus", "nodes", "iterations",
                "notes", "tasks", "events", "commits"});
  TimelineFile f;
  f.timeline.backend = j.require("backend").string();
  f.scenario = j.require("scenario").string();
  f.model = j.require("model").string();
  f.method = j.require("method").string();
  f.gpus = j.require("gpus").integer(1, ranges::kMaxGpus);
  const JsonReader nodes = j.require("nodes");
  f.nodes = nodes.integer(1, f.gpus);
  if (f.gpus % f.nodes != 0) nodes.fail("a divisor of gpus (" + std::to_string(f.gpus) + ")");
  f.iterations = j.require("iterations").integer(1, ranges::kMaxIterations);
  f.timeline.notes = j.require("notes").string_list();
  const JsonReader tasks = j.require("tasks");
  for (std::size_t i = 0; i < tasks.size() && i < static_cast<std::size_t>(std::numeric_limits<int>::max()); ++i)
    f.tasks.push_back(task_from(tasks.item(i), static_cast<int>(i), f.iterations));
  std::vector<bool> seen(f.iterations, false);
  for (const TimelineTask& t : f.tasks) seen[t.iteration] = true;
  for (int i = 0; i < f.iterations; ++i)
    if (!seen[i])
      j.require("iterations").fail("as many iterations as the tasks have (iteration " + std::to_string(i) +
                                   " has none)");
  const JsonReader events = j.require("events");
  for (std::size_t i = 0; i < events.size(); ++i)
    f.timeline.events.push_back(event_from(events.item(i), static_cast<int>(f.tasks.size())));
  const JsonReader commits = j.require("commits");
  for (std::size_t i = 0; i < commits.size(); ++i) {
    const int id = commits.item(i).integer(0, static_cast<int>(f.tasks.size()) - 1);
    if (f.tasks[id].kind != TaskKind::comm) commits.item(i).fail("a communication task of this timeline");
    f.timeline.commits.push_back(id);
  }
  return f;
}

}  // namespace

TimelineEvent event_from_json(const json& j, int tasks, const std::string& source) {
  return event_from(JsonReader(j, source), tasks);
}

ordered_json event_to_json(const TimelineEvent& e) {
  return {{"task", e.task}, {"rank", e.rank}, {"track", e.track}, {"start_s", e.start_s}, {"end_s", e.end_s}};
}

TimelineFile timeline_file(const Schedule& s, const Timeline& tl) {
  TimelineFile f;
  f.scenario = s.scenario;
  f.model = s.model;
  f.method = s.strategy.method;
  f.gpus = s.gpus();
  f.iterations = s.iterations;
  f.nodes = s.cluster.nodes;
  for (const Task& t : s.tasks)
    f.tasks.push_back({t.id, t.kind, s.name_of(t), t.iteration, t.op, t.bytes, t.algorithm ? t.algorithm->name : ""});
  f.timeline = tl;
  return f;
}

void write_timeline_json(std::ostream& out, const Schedule& s, const Timeline& tl) {
  ordered_json tasks = ordered_json::array();
  for (const Task& t : s.tasks) {
    ordered_json j = {{"id", t.id}, {"kind", to_string(t.kind)}, {"name", s.name_of(t)},
                      {"iteration", t.iteration}};
    if (t.kind == TaskKind::comm) {
      j["op"] = to_string(t.op);
      j["bytes"] = t.bytes;
    }
    if (t.algorithm) j["algorithm"] = t.algorithm->name;
    tasks.push_back(std::move(j));
  }
  ordered_json events = ordered_json::array();
  for (const TimelineEvent& e : tl.events) events.push_back(event_to_json(e));
  const ordered_json j = {{"format", "scalecast-timeline"},
                          {"version", kTimelineFormatVersion},
                          {"backend", tl.backend},
                          {"scenario", s.scenario},
                          {"model", s.model},
                          {"method", s.strategy.method},
                          {"gpus", s.gpus()},
                          {"nodes", s.cluster.nodes},
                          {"iterations", s.iterations},
                          {"notes", tl.notes},
                          {"tasks", std::move(tasks)},
                          {"events", std::move(events)},
                          {"commits", tl.commits}};
  out << json_text(j, 1) << '\n';
}

TimelineFile timeline_from_json(const json& j, const std::string& source) { return read_timeline(JsonReader(j, source)); }

TimelineFile read_timeline_json(const std::string& path) {
  return timeline_from_json(read_json_file(path, "a timeline file"), path);
}

}  // namespace scalecast
