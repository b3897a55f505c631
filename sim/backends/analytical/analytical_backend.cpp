// The analytical driver of the scheduling policy: an event loop in simulated time where compute
// and collectives take their closed-form durations, parameter-server transfers share the NICs
// and fabric fairly as fluid flows (taking turns on their connections where those are in order),
// and node-local stages take turns on the node's stream while sharing the GPU fabric links with
// those transfers.
#include "sim/backends/analytical/analytical_backend.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <limits>
#include <map>
#include <stdexcept>
#include <string>
#include <queue>
#include <span>
#include <tuple>

#include "sim/backends/analytical/comm_costs.h"
#include "sim/backends/analytical/fair_share.h"
#include "sim/collectives/node_ring.h"
#include "sim/schedules/ps_connections.h"
#include "sim/scheduling/compute_slowdown.h"
#include "sim/scheduling/scheduling_policy.h"

namespace scalecast {
namespace {

// Link ids of the parameter-server path: a GPU's fabric link in each direction (every GPU of a
// node carries alike: one stands for all), the worker NIC in each direction, then each server's
// NIC (down, up); colocated servers use the worker NIC. Where ps-lite's I/O threads bound the
// machines (kernel TCP), the worker node's I/O and then each server's follow, each shared by
// both directions.
class PsNetwork {
 public:
  PsNetwork(const Schedule& s, const LinkCapacities& l)
      : links_info_(l), path_(ps_path(s, l)), capacities_(ps_capacities(l, path_)),
        servers_(std::max(1, s.cluster.ps.count(s.cluster.nodes, s.cluster.gpus()))),
        links_(make_links(capacities_, servers_)) {}

  // Starts the network part of a push or pull as a fluid flow.
  void start(const Task& t) {
    if (t.server < 0 || t.server >= servers_)
      throw std::out_of_range("analytical backend: task " + std::to_string(t.id) + " names parameter server " +
                              std::to_string(t.server) + " of " + std::to_string(servers_));
    const bool push = t.op == CommOp::push;
    FairShareLinks::Use uses[6];
    std::size_t n = 0;
    if (path_.fabric_weight > 0) uses[n++] = {push ? 1 : 0, path_.fabric_weight};
    if (path_.worker_weight > 0) uses[n++] = {push ? 2 : 3, path_.worker_weight};
    if (path_.server_weight > 0) {
      // A colocated server's bytes take their share of the representative node's NIC (which
      // every node's server and worker share) and load the NIC of the node serving them, as a
      // dedicated server's load its own.
      if (path_.colocated) uses[n++] = {push ? 3 : 2, path_.server_weight};
      uses[n++] = {4 + 2 * t.server + (push ? 0 : 1), path_.server_own_weight};
    }
    if (capacities_.worker_io > 0) {
      const int io = 4 + 2 * servers_;
      if (path_.worker_weight > 0) uses[n++] = {io, path_.worker_weight};
      if (path_.server_weight > 0) uses[n++] = {io + 1 + t.server, path_.server_own_weight};
    }
    // Each of the partition's transfers between a node and a server (a shard per GPU with a
    // node-local reduce) is capped as one transfer is (streams, staging). It moves at the share
    // of the rate it is given that a transfer of its size reaches (the size curve), shared or
    // alone, as SimGrid's bandwidth factors scale a flow's progress: its bytes take that much
    // more of each link's capacity.
    const double share = links_info_.size_curve.at(t.bytes / path_.shards);
    links_.add(t.id, t.bytes / share, std::span<const FairShareLinks::Use>(uses, n), capacities_.transfer_cap);
  }

  // Starts a node-local stage (BytePS's ring reduce-scatter or all-gather) as a fluid flow: each
  // GPU sends and receives (g - 1) / g of the partition over its fabric link, which its shard of
  // the partition's network part also crosses, so stages and transfers share it.
  void start_stage(const Task& t) {
    links_.add(t.id, collectives::node_ring_bytes(links_info_.gpus_per_node, t.bytes), {{0, 1.0}, {1, 1.0}}, 0);
  }

  FairShareLinks& links() { return links_; }
  const PsPath& path() const { return path_; }

 private:
  static FairShareLinks make_links(const PsCapacities& c, int servers) {
    std::vector<double> caps = {c.fabric, c.fabric, c.worker_nic, c.worker_nic};
    for (int j = 0; j < servers; ++j) {
      caps.push_back(c.server_nic);
      caps.push_back(c.server_nic);
    }
    if (c.worker_io > 0) {
      caps.push_back(c.worker_io);
      for (int j = 0; j < servers; ++j) caps.push_back(c.server_io);
    }
    return FairShareLinks(caps);
  }

  const LinkCapacities& links_info_;
  PsPath path_;
  PsCapacities capacities_;
  int servers_;
  FairShareLinks links_;
};

// The parts of a push or pull, in order; parts that do not apply to the schedule are skipped.
// A pull's request (ps-lite) takes its turn on the push direction's connection, then crosses.
enum class Part { overhead, stage_before, request, network, latency, stage_after, done };

class Simulation {
 public:
  explicit Simulation(const Schedule& s)
      : s_(s), links_(link_capacities(s.cluster, s.strategy)), policy_(s), start_(s.tasks.size(), 0),
        end_(s.tasks.size(), 0), part_(s.tasks.size(), Part::overhead), ps_(s, links_),
        rule_(ps_connections(s.cluster, s.strategy)) {}

  Timeline run() {
    for (int id : policy_.initial()) events_.push({0.0, kReady, id});
    constexpr double kNever = std::numeric_limits<double>::infinity();
    while (!events_.empty() || ps_.links().active() || compute_.busy() || channel_.busy()) {
      retime_compute();
      const double next_event = std::min({events_.empty() ? kNever : std::get<0>(events_.top()), compute_.end_s,
                                          channel_.end_s});
      const double before = now_;
      now_ = std::min(next_event, ps_.links().next_completion());
      if (!std::isfinite(now_)) throw std::logic_error("analytical backend: transfers that never complete");
      const std::vector<int>& completed = ps_.links().advance(now_);
      for (int id : completed) {
        const bool stage = part_[id] != Part::network;
        if (!stage) network_done(id);
        next_part(id);
        if (stage) {
          stream_busy_ = false;
          start_stream();
        }
      }
      // Time moves on, or something happens at this instant: otherwise the loop would spin.
      if (now_ == before && completed.empty() && (events_.empty() || !at_now(std::get<0>(events_.top()))) &&
          !at_now(compute_.end_s) && !at_now(channel_.end_s))
        throw std::logic_error("analytical backend: time stopped advancing at " + std::to_string(now_) + " s");
      // Everything that happens at this instant first, so that priorities see every candidate.
      while (!events_.empty() && at_now(std::get<0>(events_.top()))) {
        instant_.clear();
        for (; !events_.empty() && at_now(std::get<0>(events_.top())); events_.pop()) instant_.push_back(events_.top());
        std::sort(instant_.begin(), instant_.end(), [](const Event& a, const Event& b) {
          return std::tie(std::get<1>(a), std::get<2>(a)) < std::tie(std::get<1>(b), std::get<2>(b));
        });
        for (const auto& [time, kind, id] : instant_) switch (kind) {
            case kReady: policy_.ready(id, now_); break;
            case kNextPart: next_part(id); break;
            case kStageFlow: ps_.start_stage(s_.tasks[id]); break;
            case kFinish: finish(id); break;
          }
      }
      // The compute stream and the channel run one task each: their ends need no events.
      for (Lane* lane : {&compute_, &channel_})
        if (at_now(lane->end_s)) finish(lane->release());
      start(policy_.dispatch());
    }
    if (!policy_.done())
      throw std::logic_error("analytical backend: " + std::to_string(policy_.unfinished()) + " tasks never ran");
    Timeline tl;
    tl.backend = "analytical";
    tl.events.reserve(s_.tasks.size());
    for (const Task& t : s_.tasks) tl.events.push_back({t.id, -1, track_name(t), start_[t.id], end_[t.id]});
    tl.commits = policy_.commit_log();
    return tl;
  }

 private:
  // At one instant: readiness first, then transfers moving on, then ends. The ready() and
  // finish() calls of one instant commute, since dispatch() sees them all together.
  enum Kind { kReady = 0, kNextPart = 1, kStageFlow = 2, kFinish = 3 };
  using Event = std::tuple<double, int, int>;  // (time, kind, task)

  // Times a rounding apart are one instant: the same durations summed in another order (a
  // compute time that moves every start) land an ulp either side of each other, and taken in time
  // order they would queue transfers on a node's stream or a connection in another order.
  bool at_now(double t) const { return t <= now_ + 1e-12 * std::max(1.0, now_); }
  // The task running on the compute stream or the channel, and when it ends.
  struct Lane {
    int task = -1;
    double end_s = std::numeric_limits<double>::infinity();
    bool busy() const { return task >= 0; }
    int release() {
      const int id = task;
      task = -1;
      end_s = std::numeric_limits<double>::infinity();
      return id;
    }
  };

  void finish(int id) {
    end_[id] = now_;
    for (const scheduling::Release& r : policy_.finish(id)) {
      if (r.delay_s > 0)
        events_.push({now_ + r.delay_s, kReady, r.task});
      else
        policy_.ready(r.task, now_);
    }
  }
  struct Connection {
    std::deque<int> waiting;
    bool busy = false;
  };

  void start(const scheduling::Dispatch& d) {
    if (d.compute >= 0) {
      start_[d.compute] = now_;
      compute_work_.start(s_.tasks[d.compute].duration_s, now_);
      compute_ = {d.compute, compute_work_.end_s()};
    }
    for (int id : d.transfers) {
      start_[id] = now_;
      part_[id] = Part::overhead;
      events_.push({now_ + ps_.path().overhead_s, kNextPart, id});
    }
    if (d.channel >= 0) {
      start_[d.channel] = now_;
      channel_ = {d.channel, now_ + collective_task_s(links_, s_.strategy, s_.tasks[d.channel])};
    }
  }

  bool applies(const Task& t, Part p) const {
    const PsPath& path = ps_.path();
    const bool push = t.op == CommOp::push;
    switch (p) {
      case Part::stage_before: return push && path.node_stage;
      case Part::request: return !push && path.network() && rule_.pull_requests;
      case Part::network:
      case Part::latency: return path.network();
      case Part::stage_after: return !push && path.node_stage;
      default: return true;
    }
  }

  // The transfer's current part has ended: start the next one that applies.
  void next_part(int id) {
    const Task& t = s_.tasks[id];
    Part p = part_[id];
    do p = static_cast<Part>(static_cast<int>(p) + 1);
    while (p != Part::done && !applies(t, p));
    part_[id] = p;
    switch (p) {
      case Part::stage_before:
      case Part::stage_after:
        stream_queue_.push_back(id);
        start_stream();
        break;
      case Part::request: queue_on(t.server, true, id); break;
      case Part::network: start_network(t); break;
      case Part::latency: events_.push({now_ + ps_.path().latency_s, kNextPart, id}); break;
      case Part::done: events_.push({now_, kFinish, id}); break;
      case Part::overhead: break;
    }
  }

  // In-order connections carry one transfer at a time per server and direction, in arrival
  // order (every node's connection alike); shared ones start each at once.
  void start_network(const Task& t) {
    if (rule_.in_order)
      queue_on(t.server, t.op == CommOp::push, t.id);
    else
      ps_.start(t);
  }

  void queue_on(int server, bool push_direction, int id) {
    Connection& c = connections_[{server, push_direction}];
    c.waiting.push_back(id);
    if (!c.busy) next_on_connection(c);
  }

  // A request carries no data: it leaves at its turn, arrives a latency later, and the
  // connection goes on at once with what was queued behind it.
  void next_on_connection(Connection& c) {
    while (!c.waiting.empty() && part_[c.waiting.front()] == Part::request) {
      events_.push({now_ + ps_.path().latency_s, kNextPart, c.waiting.front()});
      c.waiting.pop_front();
    }
    c.busy = !c.waiting.empty();
    if (!c.busy) return;
    ps_.start(s_.tasks[c.waiting.front()]);
    c.waiting.pop_front();
  }

  // The transfer's network part ended: its connection may carry the next one.
  void network_done(int id) {
    if (!rule_.in_order) return;
    const Task& t = s_.tasks[id];
    next_on_connection(connections_[{t.server, t.op == CommOp::push}]);
  }

  // The node's NCCL stream runs one stage at a time, first come first served: the latency of its
  // g - 1 ring steps, then its bytes as a flow on the fabric link.
  void start_stream() {
    if (stream_busy_ || stream_queue_.empty()) return;
    const int id = stream_queue_.front();
    stream_queue_.pop_front();
    stream_busy_ = true;
    events_.push({now_ + s_.cluster.ps.stage_overhead.s() + collectives::node_ring_latency_s(links_), kStageFlow, id});
  }

  // The compute task's end under the rate of this instant: slower while communication of this
  // GPU is in flight (Cluster::compute_slowdown).
  void retime_compute() {
    if (!compute_.busy()) return;
    const double rate = scheduling::compute_rate(s_.cluster, policy_.communicating());
    if (compute_work_.retime(now_, rate)) compute_.end_s = compute_work_.end_s();
  }

  const Schedule& s_;
  LinkCapacities links_;
  scheduling::SchedulingPolicy policy_;
  std::vector<double> start_, end_;
  std::vector<Part> part_;
  PsNetwork ps_;
  Lane compute_, channel_;
  std::deque<int> stream_queue_;
  bool stream_busy_ = false;
  scheduling::ComputeWork compute_work_;
  PsConnections rule_;  // how parameter-server transfers use their connections
  std::map<std::pair<int, bool>, Connection> connections_;  // (server, push direction)
  std::priority_queue<Event, std::vector<Event>, std::greater<>> events_;  // earliest first
  std::vector<Event> instant_;  // the events of the instant being taken
  double now_ = 0;
};

}  // namespace

Timeline AnalyticalBackend::run(const Schedule& schedule) const {
  return Simulation(schedule).run();
}

RunCost AnalyticalBackend::cost(const Schedule& s) const {
  constexpr double kEventsPerTask = 4, kBytesPerTask = 64;
  const double links = 4 + 2.0 * s.cluster.ps.count(s.cluster.nodes, s.cluster.gpus());
  // A push or pull is one flow, and one more for its node-local stage where there is one.
  const double flows_per_transfer = s.strategy.node_local_reduce && s.cluster.gpus_per_node > 1 ? 2 : 1;
  double flows = 0;
  for (const Task& t : s.tasks)
    if (t.kind == TaskKind::comm && (t.op == CommOp::push || t.op == CommOp::pull)) flows += flows_per_transfer;
  const auto tasks = static_cast<double>(s.tasks.size());
  return {kEventsPerTask * tasks + 2 * flows * links, kBytesPerTask * tasks + 16 * links, {}};
}

}  // namespace scalecast
