// How the replay moves bytes over a transport (kernel TCP or RDMA): SimGrid's network model
// and settings, the payload capacity of NICs, per-transfer caps, and route latencies.
#pragma once

#include <string>
#include <vector>

#include "sim/cluster.h"

namespace scalecast::simgrid_backend {

struct Platform;

class TransportModel {
 public:
  explicit TransportModel(const Cluster& cluster) : c_(cluster) {}

  // Network model and flags; call once the Engine exists and before build_platform.
  void configure_engine() const;
  // Payload bytes/s a NIC (or a switch link) of this line rate carries: line rate x efficiency.
  double payload_capacity(double line_rate) const;
  // Bytes/s one transfer that leaves its node may reach on its own, with a GPU at one end or
  // with a server at both (0: no cap beyond the links it shares).
  double transfer_cap(bool gpu_end) const;
  // Latency of the two links where every route begins and ends. CM02 divides a link among its
  // flows in inverse proportion to their route latencies (TCP's RTT unfairness, fitted to wide
  // areas); equal nominal route latencies keep sharing even, and the latency factor callback
  // then gives each route its real latency.
  double access_latency() const { return 0.5; }
  // What a transfer pays: the transport's one-way latency between nodes, the fabric's inside one.
  double route_latency(bool network) const {
    return network ? c_.net.latency_s : c_.fabric.latency_s;
  }
  void install_latency_factor(const Platform& platform) const;
  // One line per modelling choice, for Timeline::notes.
  std::vector<std::string> describe() const;

 private:
  Cluster c_;
};

}  // namespace scalecast::simgrid_backend
