// The replay's options, result and size outside SimGrid: the text scalecast-simgrid answers with,
// the estimate a prediction checks before it starts one, and the names it is offered under.
#include "sim/backends/replay_protocol.h"

#include <algorithm>
#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <set>
#include <stdexcept>
#include <tuple>

#include "sim/collectives/expansion.h"
#include "sim/io/input_error.h"
#include "sim/io/json_text.h"
#include "sim/formats/timeline_json.h"

namespace scalecast::simgrid_backend {

std::vector<std::string> checked_engine_args(const std::vector<std::string>& args) {
  for (const std::string& a : args) {
    const bool cfg = a.starts_with("--cfg=") && a.find(':') != std::string::npos;
    if (!cfg && !(a.starts_with("--log=") && a.size() > 6))
      throw InputError("SimGrid option '" + a +
                       "': expected --cfg=KEY:VALUE or --log=SETTING (see scalecast predict --help)");
  }
  return args;
}

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

RunCost replay_cost(const Schedule& s, ExpansionMode mode) {
  constexpr double kBytesPerFlow = 1024, kBytesPerTransfer = 24, kBytesPerHost = 4096;
  const bool folded = mode == ExpansionMode::reduced ||
                      (mode == ExpansionMode::automatic && s.gpus() > ReplayOptions{}.reduce_above_gpus);
  bool alone = true;
  for (const Task& t : s.tasks)
    alone = alone && !(t.kind == TaskKind::comm && (t.op == CommOp::push || t.op == CommOp::pull));
  std::set<std::tuple<CommOp, const collectives::AllreduceAlgorithm*, double>> simulated;
  double flows = 0, largest = 0, comm = 0;
  for (const Task& t : s.tasks) {
    if (t.kind != TaskKind::comm) continue;
    ++comm;
    if (alone && !simulated.insert({t.op, t.algorithm, t.bytes}).second) continue;
    const double n = collectives::transfer_count(s, t);
    flows += n;
    // Folded, a block's expansion is held whole while one block of nodes of it becomes flows.
    largest = std::max(largest, folded && alone && block_foldable(s, t)
                                    ? kBytesPerTransfer * n + kBytesPerFlow * n / s.cluster.nodes
                                    : kBytesPerFlow * n);
  }
  const double hosts = s.gpus() + s.cluster.ps.count(s.cluster.nodes, s.gpus());
  std::string basis = std::string(folded ? "folded" : "full") + " replay, " +
                      fmt::format("{:.3g}", flows) + " transfers expanded";
  if (alone && comm > 0)
    basis += " (" + std::to_string(simulated.size()) + " distinct collectives of " + fmt::format("{:g}", comm) +
             " simulated once each)";
  basis += folded ? "; nodes alike replayed as one block (ring, hierarchical, all-gather, reduce-scatter) or one "
                    "node (push/pull), a node's rails as one link"
                  : "; every transfer a flow, a node's rails as one link";
  return {static_cast<double>(s.tasks.size()) + flows, largest + kBytesPerHost * hosts, basis};
}

bool block_foldable(const Schedule& s, const Task& t) {
  if (t.kind != TaskKind::comm) return false;
  if (t.op == CommOp::all_gather || t.op == CommOp::reduce_scatter) return true;
  return t.op == CommOp::allreduce &&
         (t.group != CommGroup::all || collectives::replayed_allreduce(s, t).node_symmetric);
}

const std::vector<ReplayVariant>& replay_variants() {
  static const std::vector<ReplayVariant> variants = {
      {"simgrid",
       "SimGrid S4U flow-level replay on a generated platform (CM02 sharing, calibrated transport); "
       "exact reductions above 16 GPUs",
       ExpansionMode::automatic},
      {"simgrid-full", "SimGrid replay with every transfer of every step simulated", ExpansionMode::full},
      {"simgrid-reduced", "SimGrid replay with its exact reductions at any size", ExpansionMode::reduced}};
  return variants;
}

const char* to_string(ExpansionMode mode) {
  switch (mode) {
    case ExpansionMode::automatic: return "automatic";
    case ExpansionMode::full: return "full";
    case ExpansionMode::reduced: return "reduced";
  }
  return "automatic";
}

ExpansionMode parse_expansion_mode(const std::string& text) {
  for (ExpansionMode m : {ExpansionMode::automatic, ExpansionMode::full, ExpansionMode::reduced})
    if (text == to_string(m)) return m;
  throw InputError("expansion: expected automatic, full or reduced, got '" + text + "'");
}

}  // namespace scalecast::simgrid_backend
