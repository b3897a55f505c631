// Closed-form alpha-beta costs of all-reduce algorithms on a cluster (analytical backend), and
// NCCL-like algorithm choice: the cheapest of ring and tree for a message size and scale.
#pragma once

#include "sim/cluster.h"
#include "sim/strategy.h"

namespace scalecast::collectives {

// Uncontended ring all-reduce of `bytes` over p ranks on links of latency a and bandwidth B:
// 2(p-1)(a + bytes/(p*B)).
double ring_allreduce_s(int p, double bytes, double latency_s, double bandwidth);

// One all-reduce of `bytes` among all GPUs of the cluster with a resolved algorithm, plus the
// transport's per-call overhead. A ring spanning nodes pays the network latency on its 2(n-1)
// inter-node steps and the fabric latency on the others. Throws for automatic.
double allreduce_s(const Cluster& cluster, AllreduceAlgorithm algorithm, double bytes);

// Phase costs of hierarchical all-reduce: intra-node reduce-scatter, inter-node all-reduce of
// each GPU's shard (all GPUs of a node share its NIC), intra-node all-gather.
struct HierarchicalPhases {
  double reduce_scatter_s = 0;
  double inter_node_s = 0;
  double all_gather_s = 0;
};
HierarchicalPhases hierarchical_phases(const Cluster& cluster, double bytes);

// automatic -> the cheaper of ring and tree for this size (ties go to ring); others unchanged.
AllreduceAlgorithm resolve_allreduce(const Cluster& cluster, AllreduceAlgorithm algorithm,
                                     double bytes);

// The line t = a + b*bytes through the algorithm's cost at 1 MB and 64 MB (MG-WFBP's model).
struct AlphaBeta {
  double a = 0;  // s
  double b = 0;  // s/byte
};
AlphaBeta fit_alpha_beta(const Cluster& cluster, AllreduceAlgorithm algorithm);

}  // namespace scalecast::collectives
