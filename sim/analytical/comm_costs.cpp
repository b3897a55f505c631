// Closed-form communication costs for the analytical backend: collectives via the all-reduce
// cost model, PS push/pull as the bytes each link carries divided by its bandwidth.
#include "sim/analytical/comm_costs.h"

#include <algorithm>

#include "sim/collectives/allreduce_cost.h"
#include "sim/collectives/link_class.h"

namespace scalecast {

double collective_task_s(const Schedule& s, const Task& t) {
  const Cluster& c = s.cluster;
  double base = 0;
  if (t.op == CommOp::allreduce) {
    base = collectives::allreduce_s(c, t.algorithm, t.bytes);
  } else {
    // DataParallel's reduce to / broadcast from GPU 0: a pipelined chain through the GPUs,
    // crossing the network when the job spans nodes.
    const collectives::LinkClass l =
        c.nodes > 1 ? collectives::network_link(c) : collectives::fabric_link(c);
    base = (c.gpus() - 1) * l.latency_s + t.bytes / l.bandwidth + c.net.call_overhead_s;
  }
  return base + s.strategy.call_overhead_s;
}

PsPath ps_path(const Schedule& s) {
  const Cluster& c = s.cluster;
  const Strategy& st = s.strategy;
  PsPath out;
  out.colocated = c.ps.placement == "colocated";
  out.fixed_s = c.net.latency_s + c.net.call_overhead_s + st.call_overhead_s;
  const int g = c.gpus_per_node;
  if (st.node_local_reduce && g > 1) out.fabric_weight = 1;
  // BytePS with a single worker machine sums inside the node and never contacts a server.
  if (st.node_local_reduce && c.nodes == 1) return out;
  // BytePS sums a node's GPUs first and one process per node talks to the servers; otherwise
  // every GPU is a worker of its own and the node's NIC carries g copies.
  const int workers = st.node_local_reduce ? c.nodes : c.gpus();
  out.worker_weight = st.node_local_reduce ? 1 : g;
  out.server_weight = workers;
  if (out.colocated) {
    // One server per node: on average a node keeps 1/nodes of every partition local, and its
    // NIC serves 1/nodes of the partitions for the remote workers.
    const double remote = (c.nodes - 1.0) / c.nodes;
    out.worker_weight *= remote;
    out.server_weight *= remote / c.nodes;
  }
  return out;
}

PsCapacities ps_capacities(const Schedule& s) {
  const Cluster& c = s.cluster;
  Cluster server_side = c;
  if (c.ps.nic_bandwidth > 0) server_side.nic_bandwidth = c.ps.nic_bandwidth;
  server_side.net.host_staging_bandwidth = 0;  // servers keep parameters in host memory
  return {c.fabric.link_bandwidth, collectives::network_link(c).bandwidth,
          server_side.network_bandwidth()};
}

}  // namespace scalecast
