// SimgridBackend: runs the replay in a child process and carries its result back as JSON
// (doubles keep every digit), and dumps the generated platform the same way.
#include "sim/backends/simgrid/replay_backend.h"

#include <xbt/log.h>

#include <simgrid/s4u/Engine.hpp>

#include "sim/backends/simgrid/isolated_run.h"
#include "sim/backends/simgrid/platform_builder.h"
#include "sim/backends/simgrid/transport_model.h"

namespace scalecast {

using simgrid_backend::ReplayResult;

ReplayResult SimgridBackend::run_with_stats(const Schedule& schedule) const {
  const simgrid_backend::ReplayOptions options = options_;
  ReplayResult r = simgrid_backend::from_wire(
      simgrid_backend::run_isolated([&] { return simgrid_backend::to_wire(replay(schedule, options)); }),
      static_cast<int>(schedule.tasks.size()));
  r.timeline.backend = name_;
  return r;
}

RunCost SimgridBackend::cost(const Schedule& s) const { return simgrid_backend::replay_cost(s, options_.expansion); }

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
