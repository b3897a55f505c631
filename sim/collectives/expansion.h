// Expansion of a communication task into point-to-point transfers, step by step: all-reduces by
// their registered algorithm, push and pull, DataParallel's root reduce and broadcast. The
// SimGrid backend and the executor both use it, so a simulated and a real ring are one ring.
#pragma once

#include "sim/collectives/transfers.h"
#include "sim/collectives/allreduce_algorithm.h"
#include "sim/types/schedule.h"

namespace scalecast::collectives {

// A colocated server j lives on node (j mod nodes)'s first GPU; a dedicated one after the GPUs.
int server_endpoint(const Schedule& schedule, int server);
int node_of(const Cluster& cluster, int endpoint);  // node of a GPU rank; -1 for a dedicated server

// The registered algorithm whose transfers replay an all-reduce task: its own, or where it is a
// library's choice (NCCL's), the one the library's model picks at the task's size: NCCL's ring,
// its tree, and for NVLink SHARP (NVLS, NVLS-tree) the hierarchical all-reduce, whose
// reduce-scatter and all-gather inside each node stand for the switch's reduction and whose
// network part moves each GPU's share between nodes as NVLS-tree does.
const AllreduceAlgorithm& replayed_allreduce(const Schedule& schedule, const Task& task);

// Throws std::logic_error for compute tasks and for an all-reduce without an algorithm.
Expansion expand(const Schedule& schedule, const Task& task);
// expand(schedule, task).transfer_count(), worked out without expanding.
double transfer_count(const Schedule& schedule, const Task& task);

// A push or pull in its parts. With a node-local reduce (BytePS) a push first reduce-scatters
// the partition inside every node and a pull all-gathers it after the network (node_ring.h):
// those parts run on the node's NCCL stream, one task at a time; the node's first GPU alone
// talks to the server. Otherwise every GPU pushes and pulls the whole partition.
struct TransferStages {
  Expansion before;   // on the node stream, before the network
  Expansion network;  // between the workers and the server
  Expansion after;    // on the node stream, after the network
};
TransferStages transfer_stages(const Schedule& schedule, const Task& push_or_pull);

}  // namespace scalecast::collectives
