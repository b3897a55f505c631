// Group collectives by the NCCL model or the ring's closed forms, and their ring transfers.
// Sources: NCCL's ring all-gather and reduce-scatter (p - 1 steps); PyTorch FSDP's HYBRID_SHARD
// all-reduces each rank's gradient shard over the ranks with the same local index.
#include "sim/collectives/group_collectives.h"

#include <algorithm>
#include <stdexcept>

#include "sim/collectives/collective_ops.h"
#include "sim/network/nccl/nccl_collective.h"
#include "sim/collectives/node_ring.h"

namespace scalecast::collectives {
namespace {

CollectiveOp collective_of(CommOp op) {
  switch (op) {
    case CommOp::all_gather: return CollectiveOp::all_gather;
    case CommOp::reduce_scatter: return CollectiveOp::reduce_scatter;
    case CommOp::allreduce: return CollectiveOp::all_reduce;
    default: break;
  }
  throw std::logic_error("a group collective is an all-gather, a reduce-scatter or an all-reduce, not a " +
                         to_string(op));
}

// A ring over the nodes on each GPU of the node at once: 2(n - 1) steps of bytes/n, the node's
// GPUs sharing its NICs (hierarchical.cpp's inter-node phase).
double rail_allreduce_s(const LinkCapacities& l, double bytes) {
  const int n = l.nodes, g = l.gpus_per_node;
  if (n <= 1) return 0;
  const Rate bandwidth = std::min(l.spine_share(bytes / n) / g, l.fabric_link().bandwidth);
  return 2.0 * (n - 1) * (l.network_latency + Bytes(bytes) / (bandwidth * n)).s() + l.call_overhead.s();
}

// A ring over all GPUs: p - 1 steps of bytes/p.
Expansion flat_ring(int p, double bytes) {
  Expansion e;
  if (p <= 1) return e;
  for (int step = 0; step < p - 1; ++step) {
    e.steps.emplace_back();
    for (int r = 0; r < p; ++r) e.steps.back().push_back({r, (r + 1) % p, bytes / p});
  }
  return e;
}

}  // namespace

double group_collective_s(const LinkCapacities& l, CommOp op, CommGroup group, double bytes,
                          const std::string& algorithm) {
  const CollectiveOp what = collective_of(op);
  switch (group) {
    case CommGroup::all:
      if (what == CollectiveOp::all_reduce)
        throw std::logic_error("an all-reduce among every GPU is timed by its registered algorithm");
      return collective_op_s(l, what, bytes, algorithm);
    case CommGroup::node:
      if (what == CollectiveOp::all_reduce) throw std::logic_error("no all-reduce inside a node group");
      if (l.gpus_per_node <= 1) return 0;
      if (l.node_nccl && algorithm == "auto") return l.node_nccl->seconds(what, bytes);
      if (l.nodes == 1 && l.nccl && algorithm == "auto") return l.nccl->seconds(what, bytes);
      return node_ring_s(l, bytes);
    case CommGroup::rail:
      if (what != CollectiveOp::all_reduce) throw std::logic_error("a rail runs all-reduces only");
      return rail_allreduce_s(l, bytes);
  }
  return 0;
}

Expansion expand_group_collective(int nodes, int g, CommOp op, CommGroup group, double bytes) {
  collective_of(op);
  switch (group) {
    case CommGroup::all: return flat_ring(nodes * g, bytes);
    case CommGroup::node: return node_ring(nodes, g, bytes);
    case CommGroup::rail: return rail_rings(nodes, g, bytes);
  }
  return {};
}

double group_transfer_count(int nodes, int g, CommOp op, CommGroup group) {
  collective_of(op);
  const double p = static_cast<double>(nodes) * g;
  switch (group) {
    case CommGroup::all: return p <= 1 ? 0 : (p - 1) * p;
    case CommGroup::node: return g <= 1 ? 0 : static_cast<double>(g - 1) * p;
    case CommGroup::rail: return nodes <= 1 ? 0 : 2.0 * (nodes - 1) * p;
  }
  return 0;
}

}  // namespace scalecast::collectives
