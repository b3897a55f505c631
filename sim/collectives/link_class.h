// The two classes of links a collective crosses: the intra-node fabric and the network between
// nodes, each as alpha (latency per step) and beta (bytes/s) for the alpha-beta cost model.
#pragma once

#include "sim/cluster.h"

namespace scalecast::collectives {

struct LinkClass {
  double latency_s = 0;  // per message step
  double bandwidth = 0;  // bytes/s per direction
};

// GPU to GPU inside a node.
LinkClass fabric_link(const Cluster& cluster);
// Node to node for one transfer that has a node's NIC to itself: transport latency, line rate
// x efficiency capped by streams and host staging, and by the fabric the data crosses to the NIC.
LinkClass network_link(const Cluster& cluster);
// Bytes/s a leaf's uplink offers each node when every node of the leaf sends across the spine.
double spine_share(const Cluster& cluster);

}  // namespace scalecast::collectives
