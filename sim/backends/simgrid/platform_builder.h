// The SimGrid platform of a sized cluster, built through S4U without XML: a host per GPU, fabric
// links to a node-local switch, a NIC per node, one switch or a leaf-spine, parameter servers.
#pragma once

#include <simgrid/forward.h>

#include <nlohmann/json.hpp>
#include <unordered_set>
#include <vector>

#include "sim/types/cluster.h"
#include "sim/backends/simgrid/transport_model.h"

namespace scalecast::simgrid_backend {

struct Platform {
  std::vector<simgrid::s4u::Host*> endpoints;  // GPU ranks, then dedicated parameter servers
  int gpus = 0;
  // Both halves of every NIC (nodes and servers): a route that crosses one leaves its node,
  // which is how the transport model tells network transfers from fabric ones.
  std::unordered_set<const simgrid::s4u::Link*> nic_links;

  bool is_gpu(int endpoint) const { return endpoint < gpus; }
};

// Shares of the links that several nodes' traffic meets on, for a replay that runs the traffic
// of one node only (1: the whole capacity).
struct SharedLinkScale {
  double server_nic = 1;   // dedicated servers' NICs and the cores that copy their network data
  double leaf_uplink = 1;  // leaf-spine uplinks
};

// Creates the platform in the process's Engine, which must exist and carry the transport's
// configuration already. `servers`: dedicated server machines (0 for none). Capacities and
// per-transfer caps come from the transport model.
//
// Node n is a star zone: GPU r = n * gpus_per_node + i reaches the node's router (the PCIe
// root / NVSwitch) over its own split-duplex fabric link, then over the node's shared host
// bridge when the fabric has one. The router is the zone's gateway to the node's network path:
// a fatpipe that caps each transfer (TCP streams, host staging) where the transport has a cap,
// a link shared by both directions for the cores that copy the node's network data where they
// bound the machine rather than a transfer (ps-lite's I/O threads), then the split-duplex NIC, which joins a star zone per leaf switch (leaf-spine, with a
// split-duplex uplink of nodes_per_leaf * nic / oversubscription) or the single switch.
// Dedicated servers hang off the top switch with their own NIC (and cap). Only the links where
// routes begin and end (GPU fabric links, server NICs) carry a latency, the transport model's
// nominal one, so every route sums to the same; its latency factor gives each its real latency.
Platform build_platform(const Cluster& cluster, int servers, const TransportModel& transport,
                        SharedLinkScale scale = {});

// Hosts, links (bandwidth B/s, nominal latency, sharing) and the routes of one transfer of each
// kind (GPU to GPU in a node, across nodes, across leaves, to a server), for inspection.
nlohmann::json describe_platform(const Platform& platform, const TransportModel& transport);

}  // namespace scalecast::simgrid_backend
