// Hand-made clusters and schedules for the SimGrid backend's tests, and the time a schedule
// takes through either backend, so each test states its numbers in a few lines.
#pragma once

#include <algorithm>
#include <string>

#include "sim/backends/analytical/analytical_backend.h"
#include "sim/collectives/allreduce_algorithm.h"
#include "sim/backends/simgrid/replay_backend.h"
#include "sim/io/units.h"

namespace scalecast::simgrid_testing {

// nodes x gpus GPUs over `fabric`, a NIC of `gbps` with the transport's default constants.
inline Cluster cluster(int nodes, int gpus, double gbps, Transport transport,
                       const std::string& fabric = "pcie3") {
  Cluster c;
  c.gpu = "v100-pcie";
  c.nodes = nodes;
  c.gpus_per_node = gpus;
  c.fabric = default_fabric(fabric);
  c.nic_bandwidth = Rate(gbps * units::kGbps);
  c.transport = transport;
  c.net = default_transport_params(transport);
  return c;
}

inline Task comm_task(int id, CommOp op, double bytes) {
  Task t;
  t.id = id;
  t.kind = TaskKind::comm;
  t.op = op;
  t.bytes = bytes;
  return t;
}

// One collective alone.
inline Schedule collective(const Cluster& c, double bytes,
                           const std::string& algorithm = "ring") {
  Schedule s;
  s.cluster = c;
  Task t = comm_task(0, CommOp::allreduce, bytes);
  t.algorithm = &collectives::allreduce_algorithm(algorithm);
  s.tasks.push_back(t);
  return s;
}

// `messages` partitions pushed at once, each pulled back after its push, spread round robin
// over `servers` dedicated servers; `local_reduce`: BytePS, one worker process per node after a
// reduce inside the node, else every GPU is a worker.
inline Schedule push_pull(const Cluster& c, int servers, int messages, double bytes,
                          bool local_reduce = true) {
  Schedule s;
  s.cluster = c;
  s.cluster.ps.placement = Placement::dedicated;
  s.cluster.ps.servers = servers;
  s.strategy.aggregation = Aggregation::parameter_server;
  s.strategy.node_local_reduce = local_reduce;
  for (int m = 0; m < messages; ++m) {
    Task push = comm_task(2 * m, CommOp::push, bytes);
    push.server = m % servers;
    Task pull = comm_task(2 * m + 1, CommOp::pull, bytes);
    pull.server = push.server;
    pull.deps = {push.id};
    s.tasks.push_back(push);
    s.tasks.push_back(pull);
  }
  return s;
}

inline double makespan(const Timeline& tl) {
  double end = 0;
  for (const auto& e : tl.events) end = std::max(end, e.end_s);
  return end;
}

inline double analytical_s(const Schedule& s) { return makespan(AnalyticalBackend().run(s)); }

inline double simgrid_s(const Schedule& s, simgrid_backend::ExpansionMode mode =
                                               simgrid_backend::ExpansionMode::automatic) {
  simgrid_backend::ReplayOptions options;
  options.expansion = mode;
  return makespan(SimgridBackend(options).run(s));
}

}  // namespace scalecast::simgrid_testing
