// A reduce-scatter (or all-gather) ring inside every node: NCCL's intra-node ring, which BytePS
// runs before a push and after a pull (byteps/common/core_loops.cc, PostNcclCalls, on the node's
// one NCCL stream) and hierarchical all-reduce runs around its inter-node phase; and the rings
// across nodes on each local index.
#pragma once

#include "sim/collectives/transfers.h"
#include "sim/network/link_capacities.h"

namespace scalecast::collectives {

// Seconds of one reduce-scatter (or all-gather) of `bytes` among a node's GPUs, alone: g - 1
// steps of bytes/g on the fabric. Every node runs its own at once.
double node_ring_s(const LinkCapacities& links, double bytes);
// Its two parts: the latency of its g - 1 steps, and the bytes each GPU sends (and receives) in
// them, (g - 1) / g of the partition; the analytical backend runs the bytes as a shared flow.
double node_ring_latency_s(const LinkCapacities& links);
double node_ring_bytes(int gpus_per_node, double bytes);

// Its transfers in every node at once; empty for one GPU per node.
Expansion node_ring(int nodes, int gpus_per_node, double bytes);

// A ring all-reduce of `bytes` over the nodes on every local index at once (a rail: the GPUs of
// one local index), 2(nodes - 1) steps of bytes/nodes each: hierarchical all-reduce's inter-node
// phase, and a hybrid shard's all-reduce of each GPU's gradient shard. Empty on one node.
Expansion rail_rings(int nodes, int gpus_per_node, double bytes);

}  // namespace scalecast::collectives
