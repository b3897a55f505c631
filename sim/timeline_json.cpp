// Writing and strictly reading timeline JSON: a summary of the schedule's tasks and every event,
// so a file from any backend or from the executor can be compared with another of one schedule.
#include "sim/timeline_json.h"

#include <cmath>
#include <fstream>

#include <nlohmann/json.hpp>

#include "sim/collectives/allreduce_algorithm.h"

namespace scalecast {
namespace {

using nlohmann::json;
using nlohmann::ordered_json;

[[noreturn]] void fail(const std::string& source, const std::string& where, const std::string& what) {
  throw TimelineError(source + ": " + where + ": " + what);
}

template <typename T>
T get(const std::string& source, const json& obj, const char* key, const std::string& where) {
  if (!obj.is_object()) fail(source, where, "expected an object");
  auto it = obj.find(key);
  if (it == obj.end()) fail(source, where + "." + key, "missing");
  try {
    return it->get<T>();
  } catch (const json::exception&) {
    fail(source, where + "." + key, "wrong type (" + std::string(it->type_name()) + ")");
  }
}

TimelineTask task_from(const std::string& src, const json& j, int index, int iterations) {
  const std::string w = "tasks[" + std::to_string(index) + "]";
  TimelineTask t;
  t.id = get<int>(src, j, "id", w);
  if (t.id != index) fail(src, w + ".id", "expected " + std::to_string(index));
  const std::string kind = get<std::string>(src, j, "kind", w);
  try {
    t.kind = parse_task_kind(kind);
  } catch (const std::invalid_argument& e) {
    fail(src, w + ".kind", e.what());
  }
  if (t.kind == TaskKind::comm) {
    const std::string op = get<std::string>(src, j, "op", w);
    try {
      t.op = parse_comm_op(op);
    } catch (const std::invalid_argument& e) {
      fail(src, w + ".op", e.what());
    }
  }
  t.name = get<std::string>(src, j, "name", w);
  t.iteration = get<int>(src, j, "iteration", w);
  if (t.iteration < 0 || t.iteration >= iterations) fail(src, w + ".iteration", "out of range");
  if (t.kind == TaskKind::comm) {
    t.bytes = get<double>(src, j, "bytes", w);
    if (!(t.bytes >= 0)) fail(src, w + ".bytes", "expected a non-negative number");
  }
  if (t.kind == TaskKind::comm && t.op == CommOp::allreduce) {
    t.algorithm = get<std::string>(src, j, "algorithm", w);
    if (!collectives::find_allreduce(t.algorithm))
      fail(src, w + ".algorithm", "expected a registered all-reduce (" + collectives::allreduce_names(false) + ")");
  }
  return t;
}

}  // namespace

TimelineEvent event_from_json(const json& j, int tasks, const std::string& src, const std::string& w) {
  TimelineEvent e;
  e.task = get<int>(src, j, "task", w);
  if (e.task < 0 || e.task >= tasks) fail(src, w + ".task", "no such task");
  e.rank = get<int>(src, j, "rank", w);
  if (e.rank < -1) fail(src, w + ".rank", "expected -1 or a rank");
  e.track = get<std::string>(src, j, "track", w);
  e.start_s = get<double>(src, j, "start_s", w);
  e.end_s = get<double>(src, j, "end_s", w);
  if (!std::isfinite(e.start_s) || !std::isfinite(e.end_s)) fail(src, w, "times must be finite");
  if (!(e.end_s >= e.start_s)) fail(src, w, "ends before it starts");
  return e;
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
    f.tasks.push_back({t.id, t.kind, t.name, t.iteration, t.op, t.bytes, t.algorithm ? t.algorithm->name : ""});
  f.timeline = tl;
  return f;
}

void write_timeline_json(std::ostream& out, const Schedule& s, const Timeline& tl) {
  ordered_json tasks = ordered_json::array();
  for (const Task& t : s.tasks) {
    ordered_json j = {{"id", t.id}, {"kind", to_string(t.kind)}, {"name", t.name},
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
  out << j.dump(1) << '\n';
}

TimelineFile read_timeline_json(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw TimelineError(path + ": cannot open the timeline file");
  json j;
  try {
    j = json::parse(in);
  } catch (const json::parse_error& e) {
    throw TimelineError(path + ": not valid JSON (" + std::string(e.what()) + ")");
  }
  const std::string w = "timeline";
  if (get<std::string>(path, j, "format", w) != "scalecast-timeline")
    fail(path, "format", "not a scalecast timeline");
  if (get<int>(path, j, "version", w) != kTimelineFormatVersion)
    fail(path, "version", "expected " + std::to_string(kTimelineFormatVersion));
  TimelineFile f;
  f.timeline.backend = get<std::string>(path, j, "backend", w);
  f.scenario = get<std::string>(path, j, "scenario", w);
  f.model = get<std::string>(path, j, "model", w);
  f.method = get<std::string>(path, j, "method", w);
  f.gpus = get<int>(path, j, "gpus", w);
  f.iterations = get<int>(path, j, "iterations", w);
  f.nodes = get<int>(path, j, "nodes", w);
  if (f.gpus < 1) fail(path, "gpus", "expected at least 1");
  if (f.nodes < 1 || f.gpus % f.nodes != 0) fail(path, "nodes", "expected a divisor of gpus");
  if (f.iterations < 1) fail(path, "iterations", "expected at least 1");
  f.timeline.notes = get<std::vector<std::string>>(path, j, "notes", w);
  const auto tasks = get<json>(path, j, "tasks", w);
  if (!tasks.is_array()) fail(path, "tasks", "expected an array");
  for (size_t i = 0; i < tasks.size(); ++i)
    f.tasks.push_back(task_from(path, tasks[i], static_cast<int>(i), f.iterations));
  const auto events = get<json>(path, j, "events", w);
  if (!events.is_array()) fail(path, "events", "expected an array");
  for (size_t i = 0; i < events.size(); ++i)
    f.timeline.events.push_back(event_from_json(events[i], static_cast<int>(f.tasks.size()), path,
                                                "events[" + std::to_string(i) + "]"));
  f.timeline.commits = get<std::vector<int>>(path, j, "commits", w);
  for (int id : f.timeline.commits)
    if (id < 0 || id >= static_cast<int>(f.tasks.size()) || f.tasks[id].kind != TaskKind::comm)
      fail(path, "commits", "task " + std::to_string(id) + " is not a communication task of this timeline");
  return f;
}

}  // namespace scalecast
