// The analytical driver of the scheduling policy: an event loop in simulated time where compute
// and collectives take their closed-form durations and parameter-server transfers share the
// NICs and fabric fairly as fluid flows.
#include "sim/analytical/analytical_backend.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <queue>
#include <tuple>

#include "sim/analytical/comm_costs.h"
#include "sim/analytical/fair_share.h"
#include "sim/scheduling/scheduling_policy.h"

namespace scalecast {
namespace {

// Link ids of the parameter-server path: the root GPU's fabric link in each direction, the worker
// NIC in each direction, then each server's NIC (down, up); colocated servers use the worker NIC.
class PsNetwork {
 public:
  PsNetwork(const Schedule& s, const LinkCapacities& l)
      : path_(ps_path(s, l)), capacities_(ps_capacities(l)),
        links_(make_links(capacities_, std::max(1, s.cluster.ps.count(s.cluster.nodes, s.cluster.gpus())))) {}

  // Starts a push or pull; returns false when it loads no link (it then takes no time of its own).
  bool start(const Task& t) {
    const bool push = t.op == CommOp::push;
    std::vector<FairShareLinks::Use> uses;
    // The node's root GPU link (0 inbound, 1 outbound): a push sums the node's GPUs into the
    // root and, once servers are involved, copies the sum out to host memory; a pull copies it
    // back in and broadcasts it out. So across nodes both directions carry every partition.
    // On one machine BytePS runs the reduce and the broadcast on one NCCL stream: they take
    // turns, as if on one link.
    if (path_.fabric_weight > 0) {
      uses.push_back({0, path_.fabric_weight});
      if (path_.worker_weight > 0 || path_.server_weight > 0) uses.push_back({1, path_.fabric_weight});
    }
    if (path_.worker_weight > 0) uses.push_back({push ? 2 : 3, path_.worker_weight});
    if (path_.server_weight > 0) {
      const int server_link = path_.colocated ? (push ? 3 : 2) : 4 + 2 * t.server + (push ? 0 : 1);
      uses.push_back({server_link, path_.server_weight});
    }
    if (uses.empty()) return false;
    // A transfer between a GPU's node and a server is capped as one transfer is (streams, host
    // staging); node-local traffic is not.
    links_.add(t.id, t.bytes, std::move(uses), path_.worker_weight > 0 ? capacities_.transfer_cap : 0);
    return true;
  }

  FairShareLinks& links() { return links_; }
  double overhead_s() const { return path_.overhead_s; }
  double latency_s() const { return path_.latency_s; }

 private:
  static FairShareLinks make_links(const PsCapacities& c, int servers) {
    std::vector<double> caps = {c.fabric, c.fabric, c.worker_nic, c.worker_nic};
    for (int j = 0; j < servers; ++j) {
      caps.push_back(c.server_nic);
      caps.push_back(c.server_nic);
    }
    return FairShareLinks(caps);
  }

  PsPath path_;
  PsCapacities capacities_;
  FairShareLinks links_;
};

class Simulation {
 public:
  explicit Simulation(const Schedule& s)
      : s_(s), links_(link_capacities(s.cluster)), policy_(s), start_(s.tasks.size(), 0),
        end_(s.tasks.size(), 0), ps_(s, links_) {}

  Timeline run() {
    for (int id : policy_.initial()) events_.push({0.0, kReady, id});
    constexpr double kNever = std::numeric_limits<double>::infinity();
    while (!events_.empty() || ps_.links().active()) {
      const double next_event = events_.empty() ? kNever : std::get<0>(events_.top());
      now_ = std::min(next_event, ps_.links().next_completion());
      if (!std::isfinite(now_)) throw std::logic_error("analytical backend: transfers that never complete");
      for (int id : ps_.links().advance(now_)) events_.push({now_ + ps_.latency_s(), kFinish, id});
      // Everything that happens at this instant first, so that priorities see every candidate.
      while (!events_.empty() && std::get<0>(events_.top()) == now_) {
        const auto [time, kind, id] = events_.top();
        events_.pop();
        if (kind == kReady) {
          policy_.ready(id, now_);
          continue;
        }
        if (kind == kFlowStart) {
          if (!ps_.start(s_.tasks[id])) events_.push({now_ + ps_.latency_s(), kFinish, id});
          continue;
        }
        end_[id] = now_;
        for (const scheduling::Release& r : policy_.finish(id)) events_.push({now_ + r.delay_s, kReady, r.task});
      }
      start(policy_.dispatch());
    }
    if (!policy_.done())
      throw std::logic_error("analytical backend: " + std::to_string(policy_.unfinished()) + " tasks never ran");
    Timeline tl;
    tl.backend = "analytical";
    for (const Task& t : s_.tasks) tl.events.push_back({t.id, -1, track_name(t), start_[t.id], end_[t.id]});
    return tl;
  }

 private:
  // At one instant: readiness first, then flows that begin, then ends.
  enum Kind { kReady = 0, kFlowStart = 1, kFinish = 2 };

  void start(const scheduling::Dispatch& d) {
    if (d.compute >= 0) {
      start_[d.compute] = now_;
      events_.push({now_ + s_.tasks[d.compute].duration_s, kFinish, d.compute});
    }
    // A request pays its software overhead before its bytes move, and its latency after.
    for (int id : d.transfers) {
      start_[id] = now_;
      events_.push({now_ + ps_.overhead_s(), kFlowStart, id});
    }
    if (d.channel >= 0) {
      start_[d.channel] = now_;
      events_.push({now_ + collective_task_s(links_, s_.strategy, s_.tasks[d.channel]), kFinish, d.channel});
    }
  }

  const Schedule& s_;
  LinkCapacities links_;
  scheduling::SchedulingPolicy policy_;
  std::vector<double> start_, end_;
  PsNetwork ps_;
  // (time, kind, task), earliest first
  std::priority_queue<std::tuple<double, int, int>, std::vector<std::tuple<double, int, int>>,
                      std::greater<>>
      events_;
  double now_ = 0;
};

}  // namespace

Timeline AnalyticalBackend::run(const Schedule& schedule) const {
  return Simulation(schedule).run();
}

}  // namespace scalecast
