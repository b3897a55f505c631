// Chrome trace writer: complete ("X") events in microseconds, with process and thread names as
// metadata events, so Perfetto shows GPUs and communication channels as labelled tracks.
#include "sim/report/chrome_trace.h"

#include <algorithm>
#include <map>

#include "sim/collectives/allreduce_algorithm.h"
#include "sim/io/json_text.h"

namespace scalecast {
namespace {

using nlohmann::ordered_json;

constexpr int kCommPid = 100000;  // process id of the communication tracks

ordered_json meta(const char* what, int pid, int tid, const std::string& name) {
  return {{"name", what}, {"ph", "M"}, {"pid", pid}, {"tid", tid}, {"args", {{"name", name}}}};
}

ordered_json slice(const Schedule& s, const Task& t, const TimelineEvent& e, int pid, int tid) {
  ordered_json args = {{"task", t.id}, {"iteration", t.iteration}};
  if (t.kind == TaskKind::comm) {
    args["bytes"] = t.bytes;
    args["op"] = to_string(t.op);
    args["layers"] = std::to_string(t.first_layer) + ".." + std::to_string(t.last_layer);
    if (t.algorithm) args["algorithm"] = t.algorithm->name;
  }
  return {{"name", s.name_of(t)},
          {"cat", to_string(t.kind)},
          {"ph", "X"},
          {"ts", e.start_s * 1e6},
          {"dur", (e.end_s - e.start_s) * 1e6},
          {"pid", pid},
          {"tid", tid},
          {"args", std::move(args)}};
}

}  // namespace

ordered_json chrome_trace(const Schedule& s, const Timeline& tl, const TraceOptions& options) {
  ordered_json events = ordered_json::array();
  const int gpus = std::min(s.gpus(), std::max(1, options.max_gpu_tracks));
  for (int g = 0; g < gpus; ++g) {
    events.push_back(meta("process_name", g, 0, "GPU " + std::to_string(g)));
    events.push_back(meta("thread_name", g, 0, "compute"));
  }
  events.push_back(meta("process_name", kCommPid, 0, "communication"));
  std::map<std::string, int> comm_tracks;
  for (const TimelineEvent& e : tl.events) {
    const Task& t = s.tasks.at(e.task);
    if (t.kind != TaskKind::comm) {
      if (e.rank >= gpus) continue;
      const int first = e.rank < 0 ? 0 : e.rank, last = e.rank < 0 ? gpus - 1 : e.rank;
      for (int g = first; g <= last; ++g) events.push_back(slice(s, t, e, g, 0));
      continue;
    }
    auto [it, added] = comm_tracks.emplace(e.track, static_cast<int>(comm_tracks.size()) + 1);
    if (added) events.push_back(meta("thread_name", kCommPid, it->second, e.track));
    events.push_back(slice(s, t, e, kCommPid, it->second));
  }
  return {{"traceEvents", std::move(events)},
          {"displayTimeUnit", "ms"},
          {"otherData",
           {{"scenario", s.scenario},
            {"model", s.model},
            {"method", s.strategy.method},
            {"gpus", s.gpus()},
            {"backend", tl.backend}}}};
}

void write_chrome_trace(std::ostream& out, const Schedule& s, const Timeline& tl,
                        const TraceOptions& options) {
  out << json_text(chrome_trace(s, tl, options)) << "\n";
}

}  // namespace scalecast
