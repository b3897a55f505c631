// How a worker node's transfers to one parameter server use the connections between them: the
// one rule both backends follow (fair-shared flows, or turns in order with ps-lite's requests).
#pragma once

#include "sim/types/cluster.h"
#include "sim/types/strategy.h"

namespace scalecast {

struct PsConnections {
  // One transfer at a time per worker node, server and direction, in the order they are queued.
  bool in_order = false;
  // A pull first sends its request over the push direction's connection, behind the pushes
  // queued there; its data then comes back over the pull direction's.
  bool pull_requests = false;
};

// ps-lite (BytePS) talks to each server over one ZeroMQ socket per direction, so its transfers
// are in order and carry pull requests; the executor's parameter server over Gloo (strategy
// library gloo) sends each pull when its sum is ready, over pairs in order only where the
// scenario says so (network.connections).
PsConnections ps_connections(const Cluster& cluster, const Strategy& strategy);

}  // namespace scalecast
