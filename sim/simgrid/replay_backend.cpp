// SimgridBackend: runs the replay in a child process and carries its result back as JSON
// (doubles keep every digit), and dumps the generated platform the same way.
#include "sim/simgrid/replay_backend.h"

#include <xbt/log.h>

#include <simgrid/s4u/Engine.hpp>

#include <algorithm>
#include <set>
#include <tuple>

#include "sim/collectives/expansion.h"
#include "sim/json_text.h"
#include "sim/simgrid/isolated_run.h"
#include "sim/simgrid/platform_builder.h"
#include "sim/simgrid/transport_model.h"
#include "sim/timeline_json.h"

namespace scalecast {
namespace {

using simgrid_backend::ReplayResult;

std::string to_wire(const ReplayResult& r) {
  nlohmann::ordered_json events = nlohmann::ordered_json::array();
  for (const TimelineEvent& e : r.timeline.events) events.push_back(event_to_json(e));
  const auto& st = r.stats;
  return json_text(nlohmann::ordered_json{
      {"backend", r.timeline.backend},
      {"events", events},
      {"notes", r.timeline.notes},
      {"commits", r.timeline.commits},
      {"stats",
       {st.wall_s, st.peak_rss_mb, st.transfers_expanded, st.transfers_simulated, st.reduced}}});
}

ReplayResult from_wire(const std::string& text, int tasks) {
  const auto j = nlohmann::json::parse(text);
  ReplayResult r;
  r.timeline.backend = j.at("backend").get<std::string>();
  for (const auto& e : j.at("events"))
    r.timeline.events.push_back(event_from_json(e, tasks, "simgrid replay"));
  r.timeline.notes = j.at("notes").get<std::vector<std::string>>();
  r.timeline.commits = j.at("commits").get<std::vector<int>>();
  const auto& st = j.at("stats");
  r.stats.wall_s = st.at(0).get<double>();
  r.stats.peak_rss_mb = st.at(1).get<double>();
  r.stats.transfers_expanded = st.at(2).get<uint64_t>();
  r.stats.transfers_simulated = st.at(3).get<uint64_t>();
  r.stats.reduced = st.at(4).get<bool>();
  return r;
}

}  // namespace

ReplayResult SimgridBackend::run_with_stats(const Schedule& schedule) const {
  const simgrid_backend::ReplayOptions options = options_;
  ReplayResult r =
      from_wire(simgrid_backend::run_isolated([&] { return to_wire(replay(schedule, options)); }),
                static_cast<int>(schedule.tasks.size()));
  r.timeline.backend = name_;
  return r;
}

RunCost SimgridBackend::cost(const Schedule& s) const {
  constexpr double kBytesPerFlow = 1024, kBytesPerHost = 4096;
  bool alone = true;
  for (const Task& t : s.tasks)
    alone = alone && !(t.kind == TaskKind::comm && (t.op == CommOp::push || t.op == CommOp::pull));
  std::set<std::tuple<CommOp, const collectives::AllreduceAlgorithm*, double>> simulated;
  double flows = 0, largest = 0;
  for (const Task& t : s.tasks) {
    if (t.kind != TaskKind::comm || (alone && !simulated.insert({t.op, t.algorithm, t.bytes}).second)) continue;
    const double n = collectives::transfer_count(s, t);
    flows += n;
    largest = std::max(largest, n);
  }
  const double hosts = s.gpus() + s.cluster.ps.count(s.cluster.nodes, s.gpus());
  return {static_cast<double>(s.tasks.size()) + flows, kBytesPerFlow * largest + kBytesPerHost * hosts};
}

nlohmann::json simgrid_platform(const Cluster& cluster, const Strategy& strategy, int servers) {
  return nlohmann::json::parse(simgrid_backend::run_isolated([&] {
    xbt_log_control_set("root.thresh:warning");
    simgrid::s4u::Engine engine("scalecast");
    const simgrid_backend::TransportModel transport(cluster, strategy);
    transport.configure_engine();
    const auto platform = simgrid_backend::build_platform(cluster, servers, transport);
    transport.install_latency_factor(platform);
    return simgrid_backend::describe_platform(platform, transport).dump();
  }));
}

}  // namespace scalecast
