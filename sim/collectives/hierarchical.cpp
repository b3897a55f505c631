// Hierarchical all-reduce (2D ring: Jia et al., arXiv 1807.11205; Horovod's hierarchical mode):
// intra-node reduce-scatter, inter-node rings of each GPU's shard, intra-node all-gather.
#include "sim/collectives/allreduce_algorithm.h"
#include "sim/collectives/node_ring.h"

namespace scalecast::collectives {
namespace {

double ring_s(int p, double bytes, const LinkClass& link) {
  return p <= 1 ? 0 : 2.0 * (p - 1) * (link.latency + Bytes(bytes) / (link.bandwidth * p)).s();
}

// The sum of its three phases: a reduce-scatter and an all-gather of g-1 steps of bytes/g on the
// fabric, and between them g concurrent rings of bytes/g each, sharing the node's NIC (B/g each).
double cost(const LinkCapacities& l, double bytes) {
  if (l.gpus() <= 1) return 0;
  const int g = l.gpus_per_node, n = l.nodes;
  const LinkClass per_ring{l.network_latency, l.spine_share(bytes / g / n) / g};
  return 2 * node_ring_s(l, bytes) + ring_s(n, bytes / g, per_ring);
}

Expansion expand(int nodes, int g, double bytes) {
  // Intra-node reduce-scatter: a ring of g GPUs in every node, g-1 steps of bytes/g.
  Expansion e = node_ring(nodes, g, bytes);
  const int intra_steps = static_cast<int>(e.steps.size());
  // Inter-node ring all-reduce of each GPU's shard among the GPUs with the same local index.
  for (auto& step : rail_rings(nodes, g, bytes / g).steps) e.steps.push_back(std::move(step));
  // Intra-node all-gather: the reduce-scatter's steps again.
  for (int step = 0; step < intra_steps; ++step) e.steps.push_back(e.steps[step]);
  return e;
}

double transfers(int nodes, int g, double) {
  return 2.0 * nodes * g * (nodes + g - 2);
}

}  // namespace

extern const AllreduceAlgorithm kHierarchicalAllreduce = {
    "hierarchical", "intra-node reduce-scatter, inter-node ring per local index, intra-node all-gather (2D ring)",
    cost, expand, transfers, true, false};

}  // namespace scalecast::collectives
