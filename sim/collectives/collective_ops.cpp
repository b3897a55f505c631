// Closed-form times of nccl-tests' operations from the registry's all-reduces, the ring's halves,
// the pipelined chain and direct exchanges.
#include "sim/collectives/collective_ops.h"

#include <algorithm>

#include "sim/collectives/algorithm_choice.h"
#include "sim/network/nccl/nccl_collective.h"
#include "sim/collectives/pipelined_chain.h"

namespace scalecast::collectives {
namespace {

// Half a ring all-reduce: p-1 steps moving bytes/p each, network latency on the n-1 steps that
// cross nodes (the ring's cost model, ring.cpp).
double ring_half_s(const LinkCapacities& l, double bytes) {
  const int p = l.gpus(), n = l.nodes;
  const LinkClass f = l.fabric_link();
  if (n <= 1) return (p - 1) * (f.latency + Bytes(bytes) / (f.bandwidth * p)).s();
  const Rate bandwidth = std::min(l.spine_share(bytes / p), f.bandwidth);
  return (l.network_latency * (n - 1) + f.latency * (p - n) + Bytes((p - 1) * bytes) / (bandwidth * p)).s();
}

// Every rank sends its whole vector to the next at once: a step is as slow as its slowest hop.
double sendrecv_s(const LinkCapacities& l, double bytes) {
  if (l.nodes > 1) {
    const LinkClass net = l.network_link(bytes);
    return (net.latency + Bytes(bytes) / net.bandwidth).s();
  }
  const LinkClass f = l.fabric_link();
  return (f.latency + Bytes(bytes) / f.bandwidth).s();
}

// Every rank sends bytes/p to every other rank at once: a node's NIC carries what its g GPUs send
// to the other nodes, each GPU's fabric link what it sends to all others.
double alltoall_s(const LinkCapacities& l, double bytes) {
  const int p = l.gpus(), g = l.gpus_per_node;
  const double piece = bytes / p;
  const LinkClass f = l.fabric_link();
  Seconds t = f.latency + Bytes((p - 1) * piece) / f.bandwidth;
  if (l.nodes > 1) {
    const Bytes remote(static_cast<double>(g) * (p - g) * piece);
    t = std::max(t, l.network_latency + remote / l.spine_share(piece));
  }
  return t.s();
}

}  // namespace

double collective_op_s(const LinkCapacities& l, CollectiveOp op, double bytes, const std::string& algorithm) {
  if (l.gpus() <= 1) return 0;
  if (nccl_chooses(l, algorithm)) return l.nccl->seconds(op, bytes);
  double t = 0;
  switch (op) {
    case CollectiveOp::all_reduce: return allreduce_s(l, choose_allreduce(l, algorithm, bytes), bytes);
    case CollectiveOp::all_gather:
    case CollectiveOp::reduce_scatter: t = ring_half_s(l, bytes); break;
    case CollectiveOp::broadcast:
    case CollectiveOp::reduce: t = pipelined_chain_s(l, bytes); break;
    case CollectiveOp::sendrecv: t = sendrecv_s(l, bytes); break;
    case CollectiveOp::alltoall: t = alltoall_s(l, bytes); break;
  }
  return t + l.call_overhead.s();
}

}  // namespace scalecast::collectives
