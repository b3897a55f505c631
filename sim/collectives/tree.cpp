// Double binary tree all-reduce (Sanders, Speck and Traeff, Parallel Computing 35(12), 2009), as
// NCCL runs it: chains inside nodes, two complementary binary trees over the nodes.
#include <algorithm>
#include <vector>

#include "sim/collectives/allreduce_algorithm.h"
#include "sim/collectives/pipelined_chain.h"

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
  const Rate bus = n > 1 ? std::min(l.spine_share(bytes / chain_chunks(bytes)), f.bandwidth) : f.bandwidth;
  return ((f.latency * (g - 1) + l.network_latency * ceil_log2(n)) * 2 + Bytes(bytes) / (bus * (0.5 * 0.9))).s();
}

// The stages one chunk goes through, each a set of transfers that run at once: inside each node
// a chain to the node's first GPU, up two binary trees over the node leaders (tree one in heap
// order over nodes 0..n-1, tree two over the mirrored order, so that leaves of one are inner
// nodes of the other, each carrying half the data), down both trees, and a chain out again.
std::vector<std::vector<Transfer>> chunk_stages(int nodes, int g, double chunk, int piece) {
  std::vector<std::vector<Transfer>> stages;
  for (int i = g - 1; i >= 1; --i) {
    stages.emplace_back();
    for (int n = 0; n < nodes; ++n) stages.back().push_back({n * g + i, n * g + i - 1, chunk, piece});
  }
  std::vector<std::vector<Transfer>> up;
  for (int level = ceil_log2(nodes); level >= 1; --level) {
    std::vector<Transfer> stage;
    for (int k = (1 << level) - 1; k < (1 << (level + 1)) - 1 && k < nodes; ++k) {
      const int parent = (k - 1) / 2;
      stage.push_back({k * g, parent * g, chunk / 2, piece});
      stage.push_back({(nodes - 1 - k) * g, (nodes - 1 - parent) * g, chunk / 2, piece});
    }
    if (!stage.empty()) up.push_back(stage);
  }
  for (const auto& stage : up) stages.push_back(stage);
  for (auto it = up.rbegin(); it != up.rend(); ++it) {
    std::vector<Transfer> down;
    for (const Transfer& t : *it) down.push_back({t.dst, t.src, t.bytes, piece});
    stages.push_back(down);
  }
  for (int i = 1; i < g; ++i) {
    stages.emplace_back();
    for (int n = 0; n < nodes; ++n) stages.back().push_back({n * g + i - 1, n * g + i, chunk, piece});
  }
  return stages;
}

// NCCL pipelines the tree: chunk c is at stage k - c in step k, every connection in order.
Expansion expand(int nodes, int g, double bytes) {
  Expansion e;
  e.in_order = true;
  const int chunks = chain_chunks(bytes);
  std::vector<std::vector<std::vector<Transfer>>> stages;  // per chunk
  for (int c = 0; c < chunks; ++c) stages.push_back(chunk_stages(nodes, g, bytes / chunks, c));
  const int count = static_cast<int>(stages[0].size());
  for (int step = 0; count > 0 && step < chunks + count - 1; ++step) {
    std::vector<Transfer> transfers;
    for (int c = std::max(0, step - count + 1); c <= std::min(step, chunks - 1); ++c)
      for (const Transfer& t : stages[c][step - c]) transfers.push_back(t);
    e.steps.push_back(std::move(transfers));
  }
  return e;
}

double transfers(int nodes, int g, double bytes) {
  return chain_chunks(bytes) * (2.0 * (g - 1) * nodes + 4.0 * (nodes - 1));
}

}  // namespace

extern const AllreduceAlgorithm kTreeAllreduce = {
    "tree", "NCCL's double binary tree over nodes, chains inside nodes, pipelined in chunks (Sanders et al. 2009)",
    cost, expand, transfers, false, false};

}  // namespace scalecast::collectives
