// BytePS's node-local stage (byteps/common/core_loops.cc, PostNcclCalls): before a partition
// leaves a node its GPUs reduce-scatter it with NCCL, and after it comes back they all-gather it;
// both run on the node's one NCCL stream, one partition after another.
#pragma once

#include "sim/collectives/transfers.h"
#include "sim/link_capacities.h"

namespace scalecast::collectives {

// Seconds of one reduce-scatter (or all-gather) of `bytes` among a node's GPUs, alone: a ring of
// g - 1 steps of bytes/g on the fabric. Every node runs its own at once.
double node_stage_s(const LinkCapacities& links, double bytes);

// The ring's transfers in every node at once; empty for one GPU per node.
Expansion node_stage(int nodes, int gpus_per_node, double bytes);

}  // namespace scalecast::collectives
