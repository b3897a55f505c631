// How the replay moves bytes over a transport (kernel TCP or RDMA): SimGrid's network model
// and settings, the payload capacity of NICs, per-transfer caps, and route latencies.
#pragma once

#include <string>
#include <vector>

#include "sim/types/cluster.h"
#include "sim/network/link_capacities.h"

namespace scalecast::simgrid_backend {

struct Platform;

class TransportModel {
 public:
  TransportModel(const Cluster& cluster, const Strategy& strategy)
      : c_(cluster), links_(link_capacities(cluster, strategy)) {}

  // Network model and flags; call once the Engine exists and before build_platform.
  void configure_engine() const;
  // The capacities every link and per-transfer cap of the platform takes.
  const LinkCapacities& links() const { return links_; }
  // Latency of the two links where every route begins and ends. CM02 divides a link among its
  // flows in inverse proportion to their route latencies (TCP's RTT unfairness, fitted to wide
  // areas); equal nominal route latencies keep sharing even, and the latency factor callback
  // then zeroes it: each flow of the replay waits its own latency (route_latency() or NCCL's).
  double access_latency() const { return 0.5; }
  // What a transfer pays: the transport's one-way latency between nodes, the fabric's inside one.
  double route_latency(bool network) const {
    return network ? links_.network_latency.s() : links_.fabric_latency.s();
  }
  // Routes without latency (the replay's flows pay theirs) and the size curve's bandwidth
  // factors, as SimGrid network model callbacks.
  void install_latency_factor(const Platform& platform) const;
  // One line per modelling choice, for Timeline::notes.
  std::vector<std::string> describe() const;

 private:
  Cluster c_;
  LinkCapacities links_;
};

}  // namespace scalecast::simgrid_backend
