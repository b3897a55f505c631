// Point-to-point expansions of communication tasks: the registered all-reduce algorithms,
// parameter-server push/pull and DataParallel's root reduce/broadcast. Ranks go node by node.
#include "sim/collectives/expansion.h"

#include <stdexcept>

#include "sim/collectives/allreduce_algorithm.h"

namespace scalecast::collectives {

int server_endpoint(const Schedule& s, int server) {
  if (s.cluster.ps.placement == Placement::colocated) return (server % s.cluster.nodes) * s.cluster.gpus_per_node;
  return s.gpus() + server;
}

int node_of(const Cluster& c, int endpoint) {
  return endpoint < c.gpus() ? endpoint / c.gpus_per_node : -1;
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
      if (!t.algorithm) throw std::invalid_argument("expand: '" + t.name + "' has no all-reduce algorithm");
      return t.algorithm->expand(c.nodes, c.gpus_per_node, t.bytes);
    case CommOp::push:
    case CommOp::pull: return push_pull(s, t);
    case CommOp::reduce:
    case CommOp::broadcast: return root(s, t);
  }
  return {};
}

}  // namespace scalecast::collectives
