// The SimGrid backend: a flow-level replay of the schedule on a generated platform, so link
// sharing, parameter-server incast and oversubscription emerge from the network model.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <utility>

#include "sim/backends/backend.h"
#include "sim/backends/simgrid/replay.h"

namespace scalecast {

// Each run forks a process of its own (SimGrid allows one Engine per process) and pipes the
// timeline back, so a prediction over many (method, GPUs) cases stays deterministic.
class SimgridBackend : public Backend {
 public:
  explicit SimgridBackend(simgrid_backend::ReplayOptions options = {}, std::string name = "simgrid")
      : options_(std::move(options)), name_(std::move(name)) {}

  std::string name() const override { return name_; }
  Timeline run(const Schedule& schedule) const override {
    return run_with_stats(schedule).timeline;
  }
  // Every expanded transfer is a flow (collectives that run alone: each distinct one once), on a
  // platform of a host per GPU and server.
  RunCost cost(const Schedule& schedule) const override;
  // The timeline and what the replay cost (wall time, peak memory, transfers simulated).
  simgrid_backend::ReplayResult run_with_stats(const Schedule& schedule) const;

 private:
  simgrid_backend::ReplayOptions options_;
  std::string name_;
};

// The platform the replay builds for a run of `strategy` on this cluster with `servers` dedicated
// server machines: hosts, links with bandwidth and latency, and one route of each kind
// (platform_builder.h).
nlohmann::json simgrid_platform(const Cluster& cluster, const Strategy& strategy, int servers);

}  // namespace scalecast
