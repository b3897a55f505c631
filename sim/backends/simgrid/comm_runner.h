// Runs one communication task inside the SimGrid replay: the flows of its expansion, each
// started once its source holds its data, with the exact reductions that keep scale affordable.
#pragma once

#include <cstdint>
#include <map>
#include <tuple>

#include "sim/network/link_capacities.h"
#include "sim/schedules/ps_connections.h"
#include "sim/types/schedule.h"
#include "sim/backends/simgrid/flow_graph.h"
#include "sim/backends/simgrid/ordered_turns.h"
#include "sim/backends/simgrid/platform_builder.h"

namespace scalecast::simgrid_backend {

struct CommStats {
  uint64_t transfers_expanded = 0;   // transfers of every communication task's expansion
  uint64_t transfers_simulated = 0;  // SimGrid flows run for them (ghosts included)
  uint64_t collectives_reused = 0;   // collectives that took a duration simulated before
  uint64_t collectives_reduced = 0;  // collectives run as a representative block
  uint64_t ps_reduced = 0;           // push/pull tasks run for one node
};

struct CommOptions {
  // The schedule has no push/pull: collectives go one at a time through the channel and
  // compute uses no network, so a collective runs alone and its duration is a function of
  // (op, algorithm, bytes). It is then simulated once and reused (exact).
  bool collectives_alone = false;
  // Ranks of the symmetry block for ring and hierarchical all-reduce (block_graph); 0: all
  // transfers are simulated.
  int block_ranks = 0;
  // Ranks of one node when push/pull run for node 0 only (node_graph) on a platform whose
  // shared links were scaled to one node's share; 0: all transfers are simulated.
  int ps_node_ranks = 0;
};

// The latency a task's flows pay before they move data (each flow's actor sleeps it: the
// platform's routes carry none, TransportModel::install_latency_factor). A transfer pays the
// link's one-way latency, the network's between nodes and the fabric's inside one. NCCL's ring
// and tree pay what NCCL's latency model puts on a hop for the protocol it picks (nccl_tuning.h,
// hop_latencies), and the algorithm's base latency once; a connection keeps NCCL_STEPS chunks
// in flight, so in a pipelined expansion only its first chunk pays the hop's latency.
struct FlowLatency {
  double base_s = 0;
  double intra_s = 0;
  double inter_s = 0;
  bool pipelined = false;
};

class CommRunner {
 public:
  CommRunner(const Schedule& schedule, const Platform& platform, CommOptions options)
      : s_(schedule), p_(platform), o_(options), links_(link_capacities(schedule.cluster, schedule.strategy)),
        rule_(ps_connections(schedule.cluster, schedule.strategy)) {}

  // Blocks the calling actor for the task's duration: per-call overhead, then its flows (a push
  // or pull's node-local parts after the tasks before it on the node's stream).
  void run(const Task& task);
  const CommStats& stats() const { return stats_; }

 private:
  void on_stream(const Task& task, const collectives::Expansion& part);
  // Returns the transfers expanded.
  size_t run_part(const Task& task, const collectives::Expansion& part, const FlowLatency& latency);
  FlowGraph graph(const Task& task, const collectives::Expansion& part);
  FlowLatency latency(const Task& task) const;
  void execute(const FlowGraph& graph, const FlowLatency& latency);

  struct Memo {
    double duration_s = 0;
    size_t transfers = 0;
  };

  const Schedule& s_;
  const Platform& p_;
  CommOptions o_;
  LinkCapacities links_;  // the schedule's cluster, worked out once for every task
  PsConnections rule_;    // how parameter-server transfers use their connections
  CommStats stats_;
  OrderedTurns stream_;  // the node's NCCL stream (every node's, as they run alike)
  // In-order connections, per (server, push): every node's connection to that server alike.
  std::map<std::pair<int, bool>, OrderedTurns> connections_;
  std::map<std::tuple<CommOp, const collectives::AllreduceAlgorithm*, double>, Memo> memo_;
};

}  // namespace scalecast::simgrid_backend
