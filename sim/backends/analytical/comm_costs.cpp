// Closed-form communication costs for the analytical backend: collectives via the all-reduce
// cost model, PS push/pull as the bytes each link carries divided by its bandwidth.
#include "sim/backends/analytical/comm_costs.h"

#include <stdexcept>

#include "sim/collectives/algorithm_choice.h"
#include "sim/collectives/group_collectives.h"
#include "sim/network/nccl/nccl_collective.h"
#include "sim/collectives/pipelined_chain.h"

namespace scalecast {

double collective_task_s(const LinkCapacities& l, const Strategy& st, const Task& t) {
  double base = 0;
  if (t.op == CommOp::all_gather || t.op == CommOp::reduce_scatter || t.group != CommGroup::all) {
    base = collectives::group_collective_s(l, t.op, t.group, t.bytes, st.algorithm);
  } else if (t.op == CommOp::allreduce) {
    if (!t.algorithm) throw std::logic_error("all-reduce task " + std::to_string(t.id) + " has no algorithm");
    base = collectives::allreduce_s(l, *t.algorithm, t.bytes);
  } else if (l.nccl) {
    // DataParallel's reduce to / broadcast from GPU 0, as NCCL's model times them.
    base = l.nccl->seconds(t.op == CommOp::reduce ? collectives::CollectiveOp::reduce : collectives::CollectiveOp::broadcast,
                        t.bytes);
  } else {
    // Without NCCL's model: its pipelined chain through the GPUs.
    base = collectives::pipelined_chain_s(l, t.bytes) + l.call_overhead.s();
  }
  return base + framework_task_s(l, st, t.bytes);
}

PsPath ps_path(const Schedule& s, const LinkCapacities& l) {
  const Cluster& c = s.cluster;
  const Strategy& st = s.strategy;
  PsPath out;
  out.colocated = l.placement == Placement::colocated;
  out.overhead_s = ps_request_overhead_s(l, st);
  out.latency_s = l.network_latency.s();
  const int g = c.gpus_per_node;
  out.node_stage = st.node_local_reduce && g > 1;
  // BytePS with a single worker machine sums inside the node and never contacts a server.
  if (st.node_local_reduce && c.nodes == 1) return out;
  // After the node's reduce-scatter each GPU copies its 1/g shard between device and host
  // (BytePS v0.2.3 core_loops.cc, COPYD2H and COPYH2D): each GPU link carries 1/g of the
  // partition, as g transfers of a shard each.
  if (out.node_stage) {
    out.fabric_weight = 1.0 / g;
    out.shards = g;
  }
  // BytePS sums a node's GPUs first and one process per node talks to the servers; otherwise
  // every GPU is a worker of its own and the node's NIC carries g copies.
  const int workers = st.node_local_reduce ? c.nodes : c.gpus();
  out.worker_weight = st.node_local_reduce ? 1 : g;
  out.server_weight = workers;
  out.server_own_weight = workers;
  if (out.colocated) {
    // One server per node: on average a node keeps 1/nodes of every partition local, and its
    // NIC serves 1/nodes of the partitions for the remote workers.
    const double remote = (c.nodes - 1.0) / c.nodes;
    out.worker_weight *= remote;
    out.server_weight *= remote / c.nodes;
    out.server_own_weight *= remote;
  }
  return out;
}

PsCapacities ps_capacities(const LinkCapacities& l, const PsPath& p) {
  // NICs are shared by every transfer through them; each transfer is capped on its own (the
  // GPU end's cap holds the server end's, which has no host staging), a partition's shards
  // together at `shards` times that.
  const Rate cap = under_cap(l.fabric_bandwidth, l.gpu_transfer_cap);
  return {l.fabric_bandwidth.bytes_per_s(),
          l.nic_payload.bytes_per_s(),
          (p.colocated ? l.nic_payload : l.server_nic_payload).bytes_per_s(),
          p.shards * cap.bytes_per_s(),
          l.ps_worker_io.bytes_per_s(),
          l.ps_server_io.bytes_per_s()};
}

}  // namespace scalecast
