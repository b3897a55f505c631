// Double binary tree all-reduce (Sanders, Speck and Traeff, Parallel Computing 35(12), 2009), as
// NCCL runs it: chains inside nodes, two complementary binary trees over the nodes.
#include <algorithm>
#include <vector>

#include "sim/collectives/allreduce_algorithm.h"

namespace scalecast::collectives {
namespace {

int ceil_log2(int n) {
  int k = 0;
  while ((1 << k) < n) ++k;
  return k;
}

// Costed as NCCL's tuner does (src/graph/tuning.cc): latency 2((g-1) a_fabric + log2(n) a_net);
// algorithm bandwidth half the bus bandwidth, itself discounted to 0.9, because each rank sends
// and receives up to twice the data across both trees.
double cost(const LinkCapacities& l, double bytes) {
  if (l.gpus() <= 1) return 0;
  const int n = l.nodes, g = l.gpus_per_node;
  const LinkClass f = l.fabric_link();
  const double bus = n > 1 ? std::min(l.spine_share(), f.bandwidth) : f.bandwidth;
  return 2 * ((g - 1) * f.latency_s + ceil_log2(n) * l.network_latency_s) + bytes / (0.5 * 0.9 * bus);
}

Expansion expand(int nodes, int g, double bytes) {
  Expansion e;
  // Inside each node, a chain reduces to the node's first GPU ...
  for (int i = g - 1; i >= 1; --i) {
    e.steps.emplace_back();
    for (int n = 0; n < nodes; ++n) e.steps.back().push_back({n * g + i, n * g + i - 1, bytes});
  }
  // ... then two binary trees over the node leaders each reduce half the data: tree one in
  // heap order over nodes 0..n-1, tree two over the mirrored order, so leaves of one are inner
  // nodes of the other (NCCL's double binary tree).
  std::vector<std::vector<Transfer>> up;
  const int depth = ceil_log2(nodes);
  for (int level = depth; level >= 1; --level) {
    std::vector<Transfer> step;
    for (int k = (1 << level) - 1; k < (1 << (level + 1)) - 1 && k < nodes; ++k) {
      const int parent = (k - 1) / 2;
      step.push_back({k * g, parent * g, bytes / 2});
      step.push_back({(nodes - 1 - k) * g, (nodes - 1 - parent) * g, bytes / 2});
    }
    if (!step.empty()) up.push_back(step);
  }
  for (const auto& step : up) e.steps.push_back(step);
  for (auto it = up.rbegin(); it != up.rend(); ++it) {
    std::vector<Transfer> down;
    for (const Transfer& t : *it) down.push_back({t.dst, t.src, t.bytes});
    e.steps.push_back(down);
  }
  for (int i = 1; i < g; ++i) {
    e.steps.emplace_back();
    for (int n = 0; n < nodes; ++n) e.steps.back().push_back({n * g + i - 1, n * g + i, bytes});
  }
  return e;
}

}  // namespace

extern const AllreduceAlgorithm kTreeAllreduce = {
    "tree", "NCCL's double binary tree over nodes, chains inside nodes (Sanders et al. 2009)", cost, expand,
    false};

}  // namespace scalecast::collectives
