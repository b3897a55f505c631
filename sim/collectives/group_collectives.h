// Sharded data parallel's collectives: all-gathers and reduce-scatters among every GPU or inside
// each node, and the all-reduce of each GPU's shard across nodes (a rail), as times and transfers.
#pragma once

#include <string>

#include "sim/collectives/transfers.h"
#include "sim/network/link_capacities.h"
#include "sim/types/schedule.h"

namespace scalecast::collectives {

// Seconds of one all-gather or reduce-scatter of `bytes` (the whole gathered or scattered array)
// among the group's GPUs, or one all-reduce of `bytes` on every rail at once, alone on the
// cluster, the transport's per-call overhead included. Where NCCL runs the run's collectives its
// model times them (among all GPUs, or one node's for the node group); otherwise the ring's
// closed forms. A rail all-reduce is a ring over the nodes on each of the node's GPUs at once,
// the GPUs sharing the node's NICs (hierarchical all-reduce's inter-node phase).
double group_collective_s(const LinkCapacities& links, CommOp op, CommGroup group, double bytes,
                          const std::string& algorithm);

// Its transfers: a ring over the group's GPUs (p - 1 steps of bytes/p), every node's or every
// rail's at once; a rail all-reduce as 2(n - 1) steps of bytes/n on each rail.
Expansion expand_group_collective(int nodes, int gpus_per_node, CommOp op, CommGroup group, double bytes);
double group_transfer_count(int nodes, int gpus_per_node, CommOp op, CommGroup group);

}  // namespace scalecast::collectives
