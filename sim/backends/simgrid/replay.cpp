// One replay: SimGrid's log (warnings shown) and the user's options, the transport, the platform,
// the DAG controller; collects the timeline, the notes on what was modelled, and the run's cost.
#include "sim/backends/simgrid/replay.h"

#include <sys/resource.h>
#include <xbt/log.h>

#include <algorithm>
#include <chrono>
#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Engine.hpp>
#include <stdexcept>

#include "sim/backends/simgrid/comm_runner.h"
#include "sim/backends/simgrid/dag_controller.h"
#include "sim/backends/simgrid/platform_builder.h"
#include "sim/backends/simgrid/transport_model.h"

XBT_LOG_NEW_CATEGORY(scalecast, "scalecast's SimGrid backend");
XBT_LOG_NEW_DEFAULT_SUBCATEGORY(scalecast_replay, scalecast, "One replay: plan, platform, run");

namespace scalecast::simgrid_backend {
namespace {

namespace sg4 = simgrid::s4u;

// SimGrid's log: warnings by default (a platform mistake, a deadlock), then the user's --log.
void configure_log(const std::vector<std::string>& args) {
  xbt_log_control_set("root.thresh:warning");
  for (const std::string& a : args)
    if (a.starts_with("--log=")) xbt_log_control_set(a.substr(6).c_str());
}

// The user's --cfg, after scalecast's own settings so that they win.
void apply_user_config(const std::vector<std::string>& args) {
  for (const std::string& a : args)
    if (a.starts_with("--cfg=")) {
      XBT_INFO("user setting %s", a.substr(6).c_str());
      sg4::Engine::set_config(a.substr(6));
    }
}

bool has_ps(const Schedule& s) {
  return std::any_of(s.tasks.begin(), s.tasks.end(), [](const Task& t) {
    return t.kind == TaskKind::comm && (t.op == CommOp::push || t.op == CommOp::pull);
  });
}

// Ranks of the smallest block of whole nodes whose shifts map the platform onto itself: one
// node under a single switch, one leaf under a leaf-spine (0: no such symmetry).
int symmetry_block(const Cluster& c) {
  const Topology& t = c.topology;
  int nodes = 1;
  if (t.crosses_spine(c.nodes)) {
    if (c.nodes % t.nodes_per_leaf != 0) return 0;
    nodes = t.nodes_per_leaf;
  }
  return c.nodes / nodes >= 2 ? nodes * c.gpus_per_node : 0;
}

bool only_ps(const Schedule& s) {
  return std::all_of(s.tasks.begin(), s.tasks.end(), [](const Task& t) {
    return t.kind != TaskKind::comm || t.op == CommOp::push || t.op == CommOp::pull;
  });
}

// Nodes whose traffic meets on each leaf uplink (1 under a single switch), or 0 where the
// leaves are not all alike.
int nodes_per_uplink(const Cluster& c) {
  const Topology& t = c.topology;
  if (!t.crosses_spine(c.nodes)) return 1;
  return c.nodes % t.nodes_per_leaf == 0 ? t.nodes_per_leaf : 0;
}

struct Plan {
  CommOptions comm;
  SharedLinkScale scale;
};

Plan plan(const Schedule& s, const ReplayOptions& o) {
  Plan p;
  p.comm.collectives_alone = !has_ps(s);
  const bool reduce = o.expansion == ExpansionMode::reduced ||
                      (o.expansion == ExpansionMode::automatic && s.gpus() > o.reduce_above_gpus);
  if (!reduce) return p;
  const Cluster& c = s.cluster;
  if (p.comm.collectives_alone) {
    p.comm.block_ranks = symmetry_block(c);
  } else if (only_ps(s) && c.ps.placement == Placement::dedicated && c.nodes >= 2 &&
             nodes_per_uplink(c) > 0) {
    // Every node pushes and pulls every partition alike: node 0 stands for all, and the links
    // all nodes meet on keep node 0's share of their capacity.
    p.comm.ps_node_ranks = c.gpus_per_node;
    p.scale.server_nic = 1.0 / c.nodes;
    p.scale.leaf_uplink = 1.0 / nodes_per_uplink(c);
  }
  return p;
}

std::vector<std::string> expansion_notes(const Schedule& s, const CommOptions& o,
                                         const CommStats& st) {
  std::vector<std::string> out;
  out.push_back(
      "transfers start when their source has received what they carry (data dependencies), "
      "not at a barrier per step; " +
      std::to_string(st.transfers_simulated) + " flows simulated for " +
      std::to_string(st.transfers_expanded) + " expanded transfers");
  if (o.collectives_alone)
    out.push_back(
        "collectives run alone on the network: each distinct (op, algorithm, bytes) simulated "
        "once, " +
        std::to_string(st.collectives_reused) + " reused (exact)");
  if (st.collectives_reduced > 0) {
    std::string note = "reduction: " + std::to_string(st.collectives_reduced) +
                       " collectives (ring or hierarchical all-reduces, group rings) replayed as one symmetry block of " +
                       std::to_string(o.block_ranks) + " ranks plus ghost flows into it";
    note += s.cluster.fabric.bridge_bandwidth > Rate()
                ? " (the host bridges of other nodes carry less traffic than in the full replay)"
                : " (exact on this platform)";
    out.push_back(note);
  }
  if (st.ps_reduced > 0)
    out.push_back(
        "reduction: " + std::to_string(st.ps_reduced) +
        " push/pull tasks replayed for node 0 only, with the server NICs (and leaf uplinks) "
        "at node 0's share of their capacity (exact: every node moves every partition alike)");
  return out;
}

}  // namespace

ReplayResult replay(const Schedule& schedule, const ReplayOptions& options) {
  const auto wall_start = std::chrono::steady_clock::now();
  configure_log(options.engine_args);
  sg4::Engine engine("scalecast");
  const TransportModel transport(schedule.cluster, schedule.strategy);
  transport.configure_engine();
  // Every flow is an actor of its own (CommRunner::execute), up to 1e6 in a run at 8192 GPUs:
  // 32 KiB stacks without guard pages (a flow's actor sends and releases, nothing deeper) keep
  // their creation cheap; SimGrid's default is 8 MiB, zeroed, with a guard page.
  sg4::Engine::set_config("contexts/stack-size:32");
  sg4::Engine::set_config("contexts/guard-size:0");
  apply_user_config(options.engine_args);
  const Cluster& c = schedule.cluster;
  const int servers =
      has_ps(schedule) && c.ps.placement == Placement::dedicated ? c.ps.count(c.nodes, c.gpus()) : 0;
  const Plan p = plan(schedule, options);
  XBT_VERB("replaying %zu tasks on %d nodes of %d GPUs, %d dedicated servers", schedule.tasks.size(), c.nodes,
           c.gpus_per_node, servers);
  const Platform platform = build_platform(c, servers, transport, p.scale);
  transport.install_latency_factor(platform);

  CommRunner runner(schedule, platform, p.comm);
  DagController controller(schedule, runner, platform.endpoints.at(0), options.progress);
  sg4::Actor::create("controller", platform.endpoints.at(0), [&controller] { controller(); });
  engine.run();
  XBT_VERB("simulated %.9f s", sg4::Engine::get_clock());
  if (!controller.complete())
    throw std::runtime_error(
        "simgrid replay stopped before every task ran: the schedule's dependencies "
        "cannot all be met");

  ReplayResult r;
  r.timeline = controller.timeline();
  for (auto& note : transport.describe()) r.timeline.notes.push_back(std::move(note));
  r.timeline.notes.push_back("platform: " + std::to_string(platform.endpoints.size()) + " hosts, " +
                             std::to_string(engine.get_link_count()) + " links, " +
                             to_string(c.topology.kind));
  r.timeline.notes.push_back(
      "one compute stream for all GPUs: compute tasks are alike on every GPU and "
      "each communication task ends on all of them together");
  for (auto& note : expansion_notes(schedule, p.comm, runner.stats()))
    r.timeline.notes.push_back(std::move(note));
  r.stats.transfers_expanded = runner.stats().transfers_expanded;
  r.stats.transfers_simulated = runner.stats().transfers_simulated;
  r.stats.reduced = runner.stats().collectives_reduced + runner.stats().ps_reduced > 0;
  r.stats.wall_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  r.stats.peak_rss_mb = static_cast<double>(usage.ru_maxrss) / 1024.0;  // ru_maxrss is in KiB
  return r;
}

}  // namespace scalecast::simgrid_backend
