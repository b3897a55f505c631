// Point-to-point expansions of communication tasks: the registered all-reduce algorithms,
// parameter-server push/pull and DataParallel's root reduce/broadcast. Ranks go node by node.
#include "sim/collectives/expansion.h"

#include <stdexcept>
#include <string>

#include "sim/collectives/group_collectives.h"
#include "sim/io/input_error.h"
#include "sim/network/nccl/nccl_collective.h"
#include "sim/collectives/node_ring.h"
#include "sim/collectives/pipelined_chain.h"

namespace scalecast::collectives {

int server_endpoint(const Schedule& s, int server) {
  if (server < 0 || server >= s.cluster.ps.count(s.cluster.nodes, s.gpus()))
    throw std::out_of_range("parameter server " + std::to_string(server) + " of a schedule with " +
                            std::to_string(s.cluster.ps.count(s.cluster.nodes, s.gpus())) + " servers");
  if (s.cluster.ps.placement == Placement::colocated) return (server % s.cluster.nodes) * s.cluster.gpus_per_node;
  return s.gpus() + server;
}

int node_of(const Cluster& c, int endpoint) {
  return endpoint < c.gpus() ? endpoint / c.gpus_per_node : -1;
}

namespace {

// DataParallel's reduce to GPU 0 or broadcast from it: NCCL's pipelined chain.
Expansion root(const Schedule& s, const Task& t) {
  return pipelined_chain(s.gpus(), t.bytes, t.op == CommOp::reduce);
}

// The task's all-reduce algorithm; throws std::logic_error where it has none (the schedule's
// reader requires one).
const AllreduceAlgorithm& task_algorithm(const Task& t, const char* what) {
  if (!t.algorithm) throw std::logic_error(std::string(what) + ": task " + std::to_string(t.id) + " has no all-reduce algorithm");
  return *t.algorithm;
}

}  // namespace

const AllreduceAlgorithm& replayed_allreduce(const Schedule& s, const Task& t) {
  const AllreduceAlgorithm& a = task_algorithm(t, "replay");
  if (!a.library_choice) return a;
  const LinkCapacities links = link_capacities(s.cluster, s.strategy);
  if (!links.nccl) return allreduce_algorithm("ring");
  const auto picked = links.nccl->choice(nccl::Func::all_reduce, t.bytes);
  if (!picked) throw InputError("NCCL's masks leave no all-reduce algorithm for task " + std::to_string(t.id));
  switch (picked->algo) {
    case nccl::Algo::tree: return allreduce_algorithm("tree");
    case nccl::Algo::nvls:
    case nccl::Algo::nvls_tree: return allreduce_algorithm("hierarchical");
    default: return allreduce_algorithm("ring");
  }
}

TransferStages transfer_stages(const Schedule& s, const Task& t) {
  if (t.op != CommOp::push && t.op != CommOp::pull)
    throw std::logic_error("transfer_stages: task " + std::to_string(t.id) + " is not a push or a pull");
  const Cluster& c = s.cluster;
  const int g = c.gpus_per_node, server = server_endpoint(s, t.server);
  const bool local = s.strategy.node_local_reduce;
  const bool push = t.op == CommOp::push;
  TransferStages out;
  std::vector<Transfer> network;
  // BytePS with a single worker machine sums inside the node and never contacts a server.
  if (!(local && c.nodes == 1))
    for (int n = 0; n < c.nodes; ++n)
      for (int i = 0; i < g; ++i) {
        const int rank = n * g + i;
        // With a node-local reduce each GPU copies its 1/g shard between device and host (BytePS
        // v0.2.3 core_loops.cc, COPYD2H and COPYH2D): a transfer of a shard per GPU, none where
        // the node hosts the server. Otherwise every GPU is a worker of its own.
        if (local && node_of(c, rank) != node_of(c, server))
          network.push_back(push ? Transfer{rank, server, t.bytes / g} : Transfer{server, rank, t.bytes / g});
        else if (!local && rank != server)
          network.push_back(push ? Transfer{rank, server, t.bytes} : Transfer{server, rank, t.bytes});
      }
  if (!network.empty()) out.network.steps.push_back(std::move(network));
  if (local) (push ? out.before : out.after) = node_ring(c.nodes, g, t.bytes);
  return out;
}

Expansion expand(const Schedule& s, const Task& t) {
  if (t.kind != TaskKind::comm) throw std::logic_error("expand: task " + std::to_string(t.id) + " is not a communication task");
  const Cluster& c = s.cluster;
  switch (t.op) {
    case CommOp::all_gather:
    case CommOp::reduce_scatter: return expand_group_collective(c.nodes, c.gpus_per_node, t.op, t.group, t.bytes);
    case CommOp::allreduce:
      if (t.group != CommGroup::all) return expand_group_collective(c.nodes, c.gpus_per_node, t.op, t.group, t.bytes);
      return replayed_allreduce(s, t).expand(c.nodes, c.gpus_per_node, t.bytes);
    case CommOp::push:
    case CommOp::pull: {
      TransferStages st = transfer_stages(s, t);
      Expansion e = std::move(st.before);
      for (auto* part : {&st.network, &st.after})
        for (auto& step : part->steps) e.steps.push_back(std::move(step));
      return e;
    }
    case CommOp::reduce:
    case CommOp::broadcast: return root(s, t);
  }
  return {};
}

double transfer_count(const Schedule& s, const Task& t) {
  const Cluster& c = s.cluster;
  const double p = c.gpus(), g = c.gpus_per_node;
  switch (t.op) {
    case CommOp::all_gather:
    case CommOp::reduce_scatter: return group_transfer_count(c.nodes, c.gpus_per_node, t.op, t.group);
    case CommOp::allreduce:
      if (t.group != CommGroup::all) return group_transfer_count(c.nodes, c.gpus_per_node, t.op, t.group);
      return replayed_allreduce(s, t).transfers(c.nodes, c.gpus_per_node, t.bytes);
    case CommOp::push:
    case CommOp::pull: {
      // Every GPU talks to the server (with a node-local reduce, a shard each), unless it hosts
      // the server (colocated, on a node's first GPU; with a node-local reduce, its whole node);
      // a single node never does.
      const bool local = s.strategy.node_local_reduce;
      if (local && c.nodes == 1) return (g - 1) * p;
      const double hosted = c.ps.placement == Placement::colocated ? (local ? g : 1) : 0;
      return p - hosted + (local ? (g - 1) * p : 0);
    }
    case CommOp::reduce:
    case CommOp::broadcast: return (p - 1) * chain_chunks(t.bytes);
  }
  return 0;
}

}  // namespace scalecast::collectives
