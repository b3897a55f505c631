// Point-to-point expansions of all-reduce algorithms, parameter-server push/pull and the root
// reduce/broadcast of DataParallel. Ranks are numbered node by node.
#include "sim/collectives/expansion.h"

#include <stdexcept>

namespace scalecast::collectives {

double Expansion::total_bytes() const {
  double sum = 0;
  for (const auto& step : steps)
    for (const auto& t : step) sum += t.bytes;
  return sum;
}

size_t Expansion::transfer_count() const {
  size_t n = 0;
  for (const auto& step : steps) n += step.size();
  return n;
}

int server_endpoint(const Schedule& s, int server) {
  if (s.cluster.ps.placement == "colocated") return (server % s.cluster.nodes) * s.cluster.gpus_per_node;
  return s.gpus() + server;
}

int node_of(const Cluster& c, int endpoint) {
  return endpoint < c.gpus() ? endpoint / c.gpus_per_node : -1;
}

Expansion ring_allreduce(int p, double bytes) {
  Expansion e;
  if (p <= 1) return e;
  for (int step = 0; step < 2 * (p - 1); ++step) {
    e.steps.emplace_back();
    for (int r = 0; r < p; ++r) e.steps.back().push_back({r, (r + 1) % p, bytes / p});
  }
  return e;
}

Expansion halving_doubling_allreduce(int p, double bytes) {
  Expansion e;
  if (p <= 1) return e;
  int pow2 = 1;
  while (pow2 * 2 <= p) pow2 *= 2;
  // Ranks beyond the largest power of two fold their data into a partner first.
  if (pow2 != p) {
    e.steps.emplace_back();
    for (int r = pow2; r < p; ++r) e.steps.back().push_back({r, r - pow2, bytes});
  }
  std::vector<std::vector<Transfer>> halving;
  double chunk = bytes;
  for (int d = pow2 / 2; d >= 1; d /= 2) {
    chunk /= 2;
    halving.emplace_back();
    for (int r = 0; r < pow2; ++r) halving.back().push_back({r, r ^ d, chunk});
  }
  for (const auto& step : halving) e.steps.push_back(step);
  for (auto it = halving.rbegin(); it != halving.rend(); ++it) e.steps.push_back(*it);
  if (pow2 != p) {
    e.steps.emplace_back();
    for (int r = pow2; r < p; ++r) e.steps.back().push_back({r - pow2, r, bytes});
  }
  return e;
}

Expansion tree_allreduce(int nodes, int g, double bytes) {
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
  int depth = 0;
  while ((1 << depth) < nodes) ++depth;
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

Expansion hierarchical_allreduce(int nodes, int g, double bytes) {
  Expansion e;
  // Intra-node reduce-scatter: a ring of g GPUs in every node, g-1 steps of bytes/g.
  for (int step = 0; step < g - 1; ++step) {
    e.steps.emplace_back();
    for (int n = 0; n < nodes; ++n)
      for (int i = 0; i < g; ++i) e.steps.back().push_back({n * g + i, n * g + (i + 1) % g, bytes / g});
  }
  // Inter-node ring all-reduce of each GPU's shard among the GPUs with the same local index.
  for (int step = 0; step < 2 * (nodes - 1); ++step) {
    e.steps.emplace_back();
    for (int i = 0; i < g; ++i)
      for (int n = 0; n < nodes; ++n)
        e.steps.back().push_back({n * g + i, ((n + 1) % nodes) * g + i, bytes / g / nodes});
  }
  // Intra-node all-gather: the reduce-scatter's steps again.
  for (int step = 0; step < g - 1; ++step) e.steps.push_back(e.steps[step]);
  return e;
}

namespace {

// Chunks a node-local chain is cut into so that its hops work at once (NCCL pipelines its
// reduce and broadcast chains the same way); one piece suffices for a single hop.
constexpr int kChainChunks = 8;

// A pipelined chain through every node's GPUs: towards the node's first GPU (reduce) or away
// from it (broadcast). In step k, hop h moves the chunk the previous hop delivered in step k-1,
// so each GPU link carries the message once, not g-1 times as a gather to one GPU would.
std::vector<std::vector<Transfer>> node_chain(const Cluster& c, double bytes, bool towards_first) {
  const int g = c.gpus_per_node, hops = g - 1;
  const int chunks = hops > 1 ? kChainChunks : 1;
  std::vector<std::vector<Transfer>> steps;
  for (int step = 0; hops > 0 && step < chunks + hops - 1; ++step) {
    std::vector<Transfer> transfers;
    for (int h = 0; h < hops; ++h) {
      if (step - h < 0 || step - h >= chunks) continue;
      const int src = towards_first ? g - 1 - h : h, dst = towards_first ? g - 2 - h : h + 1;
      for (int n = 0; n < c.nodes; ++n) transfers.push_back({n * g + src, n * g + dst, bytes / chunks});
    }
    steps.push_back(std::move(transfers));
  }
  return steps;
}

// Push or pull of a partition between the workers and its server. With a node-local reduce,
// the node's GPUs first reduce to the node's first GPU, which alone talks to the server.
Expansion push_pull(const Schedule& s, const Task& t) {
  const Cluster& c = s.cluster;
  const int g = c.gpus_per_node, server = server_endpoint(s, t.server);
  const bool local = s.strategy.node_local_reduce;
  const bool push = t.op == CommOp::push;
  std::vector<Transfer> network;
  for (int n = 0; n < c.nodes; ++n)
    for (int i = 0; i < g; ++i) {
      const int rank = n * g + i;
      // BytePS with a single worker machine sums inside the node and never contacts a server.
      if ((!local || i == 0) && rank != server && !(local && c.nodes == 1))
        network.push_back(push ? Transfer{rank, server, t.bytes} : Transfer{server, rank, t.bytes});
    }
  Expansion e;
  if (local && push) e.steps = node_chain(c, t.bytes, true);
  if (!network.empty()) e.steps.push_back(network);
  if (local && !push)
    for (auto& step : node_chain(c, t.bytes, false)) e.steps.push_back(std::move(step));
  return e;
}

// DataParallel: every GPU sends its gradients to GPU 0, or GPU 0 sends parameters to each.
Expansion root(const Schedule& s, const Task& t) {
  Expansion e;
  e.steps.emplace_back();
  for (int r = 1; r < s.gpus(); ++r)
    e.steps.back().push_back(t.op == CommOp::reduce ? Transfer{r, 0, t.bytes} : Transfer{0, r, t.bytes});
  return e;
}

}  // namespace

Expansion expand(const Schedule& s, const Task& t) {
  if (t.kind != TaskKind::comm) throw std::invalid_argument("expand: '" + t.name + "' is not a communication task");
  const Cluster& c = s.cluster;
  switch (t.op) {
    case CommOp::allreduce:
      switch (t.algorithm) {
        case AllreduceAlgorithm::ring: return ring_allreduce(s.gpus(), t.bytes);
        case AllreduceAlgorithm::halving_doubling: return halving_doubling_allreduce(s.gpus(), t.bytes);
        case AllreduceAlgorithm::tree: return tree_allreduce(c.nodes, c.gpus_per_node, t.bytes);
        case AllreduceAlgorithm::hierarchical: return hierarchical_allreduce(c.nodes, c.gpus_per_node, t.bytes);
        case AllreduceAlgorithm::automatic: break;
      }
      throw std::invalid_argument("expand: '" + t.name + "' has an unresolved algorithm");
    case CommOp::push:
    case CommOp::pull: return push_pull(s, t);
    case CommOp::reduce:
    case CommOp::broadcast: return root(s, t);
  }
  return {};
}

}  // namespace scalecast::collectives
