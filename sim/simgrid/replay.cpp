// One replay: silence SimGrid, configure the transport, build the platform, run the DAG
// controller and collect the timeline, the notes on what was modelled, and the cost of the run.
#include "sim/simgrid/replay.h"

#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Engine.hpp>
#include <sys/resource.h>
#include <xbt/log.h>

#include <algorithm>
#include <chrono>
#include <stdexcept>

#include "sim/simgrid/comm_runner.h"
#include "sim/simgrid/dag_controller.h"
#include "sim/simgrid/platform_builder.h"
#include "sim/simgrid/transport_model.h"

namespace scalecast::simgrid_backend {
namespace {

namespace sg4 = simgrid::s4u;

bool has_ps(const Schedule& s) {
  return std::any_of(s.tasks.begin(), s.tasks.end(), [](const Task& t) {
    return t.kind == TaskKind::comm && (t.op == CommOp::push || t.op == CommOp::pull);
  });
}

// Reductions rest on collectives running alone on the network: true when the schedule has no
// push/pull (collectives go one at a time through the channel, compute uses no network).
bool use_reductions(const Schedule& s, const ReplayOptions& o) {
  if (has_ps(s) || o.expansion == ExpansionMode::full) return false;
  return o.expansion == ExpansionMode::reduced || s.gpus() > o.reduce_above_gpus;
}

std::string expansion_note(const Schedule& s, const ReplayOptions& o, bool reduced, const CommStats& st) {
  const std::string counts = std::to_string(st.transfers_simulated) + " of " +
                             std::to_string(st.transfers_expanded) + " transfers simulated";
  if (reduced)
    return "expansion reduced (exact while collectives run alone on the network): a run of identical "
           "consecutive steps is simulated once and repeated, each distinct collective (op, algorithm, "
           "bytes) once and reused; " + counts;
  if (o.expansion != ExpansionMode::full && has_ps(s))
    return "expansion full (no reduction applies: parameter-server transfers overlap); " + counts;
  return "expansion full; " + counts;
}

}  // namespace

ReplayResult replay(const Schedule& schedule, const ReplayOptions& options) {
  const auto wall_start = std::chrono::steady_clock::now();
  xbt_log_control_set("root.thresh:critical");
  sg4::Engine engine("scalecast");
  const TransportModel transport(schedule.cluster);
  transport.configure_engine();
  const Cluster& c = schedule.cluster;
  const int servers = has_ps(schedule) && c.ps.placement != "colocated" ? c.ps.count(c.nodes, c.gpus()) : 0;
  const Platform platform = build_platform(c, servers, transport);
  transport.install_latency_factor(platform);

  const bool reduced = use_reductions(schedule, options);
  CommRunner runner(schedule, platform, reduced);
  DagController controller(schedule, runner, platform.endpoints.at(0), options.progress);
  sg4::Actor::create("controller", platform.endpoints.at(0), [&controller] { controller(); });
  engine.run();
  if (!controller.complete())
    throw std::runtime_error("simgrid replay stopped before every task ran: the schedule's dependencies "
                             "cannot all be met");

  ReplayResult r;
  r.timeline = controller.timeline();
  r.timeline.notes = transport.describe();
  r.timeline.notes.push_back("platform: " + std::to_string(platform.endpoints.size()) + " hosts, " +
                             std::to_string(engine.get_link_count()) + " links, " + c.topology.kind);
  r.timeline.notes.push_back("one compute stream for all GPUs: compute tasks are alike on every GPU and "
                             "each communication task ends on all of them together");
  r.timeline.notes.push_back(expansion_note(schedule, options, reduced, runner.stats()));
  r.stats.transfers_expanded = runner.stats().transfers_expanded;
  r.stats.transfers_simulated = runner.stats().transfers_simulated;
  r.stats.reduced = reduced;
  r.stats.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  r.stats.peak_rss_mb = static_cast<double>(usage.ru_maxrss) / 1024.0;  // ru_maxrss is in KiB
  return r;
}

}  // namespace scalecast::simgrid_backend
