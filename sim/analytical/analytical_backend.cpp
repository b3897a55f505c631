// The analytical list scheduler: an event loop over the schedule's DAG with one compute stream,
// one collective channel (priority order and credit window from the strategy), and parameter-
// server transfers sharing the NICs and fabric fairly as fluid flows.
#include "sim/analytical/analytical_backend.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <map>
#include <queue>
#include <tuple>

#include "sim/analytical/comm_costs.h"
#include "sim/analytical/fair_share.h"

namespace scalecast {
namespace {

using Key = std::tuple<double, double, int>;  // ordering key of a ready task, smallest first

// Link ids of the parameter-server path: the root GPU's fabric link and the worker NIC in each
// direction, then each server's NIC (down, up); colocated servers use the worker NIC itself.
class PsNetwork {
 public:
  explicit PsNetwork(const Schedule& s)
      : path_(ps_path(s)), servers_(std::max(1, s.cluster.ps.count(s.cluster.nodes, s.cluster.gpus()))),
        links_(capacities(s, servers_)) {}

  // Starts a push or pull; returns false when it loads no link (it then takes only fixed_s).
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
    links_.add(t.id, t.bytes, std::move(uses));
    return true;
  }

  FairShareLinks& links() { return links_; }
  double fixed_s() const { return path_.fixed_s; }

 private:
  static FairShareLinks capacities(const Schedule& s, int servers) {
    const PsCapacities c = ps_capacities(s);
    std::vector<double> caps = {c.fabric, c.fabric, c.worker_nic, c.worker_nic};
    for (int j = 0; j < servers; ++j) {
      caps.push_back(c.server_nic);
      caps.push_back(c.server_nic);
    }
    return FairShareLinks(caps);
  }

  PsPath path_;
  int servers_;
  FairShareLinks links_;
};

class Simulation {
 public:
  explicit Simulation(const Schedule& s)
      : s_(s), n_(static_cast<int>(s.tasks.size())), pending_(n_), ready_at_(n_, 0),
        start_(n_, 0), end_(n_, 0), finished_(n_, false), dependents_(n_), ps_(s) {
    for (const Task& t : s.tasks) {
      pending_[t.id] = static_cast<int>(t.deps.size());
      for (int d : t.deps) dependents_[d].push_back(t.id);
    }
  }

  Timeline run() {
    for (const Task& t : s_.tasks)
      if (pending_[t.id] == 0) events_.push({0.0, 0, t.id});
    constexpr double kNever = std::numeric_limits<double>::infinity();
    while (!events_.empty() || ps_.links().active()) {
      const double next_event = events_.empty() ? kNever : std::get<0>(events_.top());
      now_ = std::min(next_event, ps_.links().next_completion());
      if (!std::isfinite(now_)) throw std::logic_error("analytical backend: transfers that never complete");
      for (int id : ps_.links().advance(now_)) events_.push({now_ + ps_.fixed_s(), 1, id});
      // Everything that happens at this instant first, so that priorities see every candidate.
      while (!events_.empty() && std::get<0>(events_.top()) == now_) {
        auto [time, kind, id] = events_.top();
        events_.pop();
        if (kind == 0) on_ready(id);
        else on_finish(id);
      }
      dispatch();
    }
    for (const Task& t : s_.tasks)
      if (pending_[t.id] > 0 || !finished_[t.id])
        throw std::logic_error("analytical backend: task " + std::to_string(t.id) + " (" + t.name + ") never ran");
    Timeline tl;
    tl.backend = "analytical";
    for (const Task& t : s_.tasks) tl.events.push_back({t.id, -1, track(t), start_[t.id], end_[t.id]});
    return tl;
  }

 private:
  std::string track(const Task& t) const {
    if (t.kind != TaskKind::comm) return "compute";
    if (is_ps(t)) return to_string(t.op) + " server " + std::to_string(t.server);
    return "collective";
  }

  Key key(const Task& t) const {
    if (s_.strategy.priority) return {t.priority, ready_at_[t.id], t.id};
    return {ready_at_[t.id], t.priority, t.id};
  }

  static bool is_ps(const Task& t) { return t.op == CommOp::push || t.op == CommOp::pull; }
  // Credit is kept per parameter server (server-side scheduling), and once for collectives.
  static int window(const Task& t) { return is_ps(t) ? t.server : -1; }

  void on_ready(int id) {
    const Task& t = s_.tasks[id];
    ready_at_[id] = now_;
    if (t.kind != TaskKind::comm) compute_ready_.push(id);
    else if (t.op == CommOp::pull) start_ps(t);  // its push already holds the credit
    else comm_ready_[window(t)].push({key(t), id});
  }

  void on_finish(int id) {
    const Task& t = s_.tasks[id];
    end_[id] = now_;
    finished_[id] = true;
    if (t.kind != TaskKind::comm) compute_busy_ = false;
    else if (!is_ps(t)) collective_busy_ = false;
    if (t.kind == TaskKind::comm && t.op != CommOp::push) in_flight_[window(t)] -= t.bytes;
    for (int d : dependents_[id]) {
      ready_at_[d] = std::max(ready_at_[d], now_);
      if (--pending_[d] == 0) events_.push({now_ + s_.tasks[d].delay_s, 0, d});
    }
  }

  // ByteScheduler's credit: a message may be committed while the bytes in flight in its window
  // stay within the credit (always when nothing is in flight). No credit: commit on readiness
  // for PS transfers, and for the collective channel only when it is idle, so that it picks the
  // most urgent ready message at that moment.
  bool may_commit(const Task& t) const {
    const double credit = s_.strategy.credit_bytes;
    auto it = in_flight_.find(window(t));
    const double used = it == in_flight_.end() ? 0 : it->second;
    if (credit > 0) return used <= 0 || used + t.bytes <= credit;
    return is_ps(t) || (!collective_busy_ && committed_.empty());
  }

  void dispatch() {
    if (!compute_busy_ && !compute_ready_.empty()) {
      const int id = compute_ready_.top();
      compute_ready_.pop();
      compute_busy_ = true;
      begin(id);
      events_.push({now_ + s_.tasks[id].duration_s, 1, id});
    }
    // Each window commits its most urgent ready messages in order and stops at the first that
    // does not fit: a full window holds back its own messages only.
    for (auto& [window_id, ready] : comm_ready_) {
      while (!ready.empty()) {
        const Task& t = s_.tasks[ready.top().second];
        if (!may_commit(t)) break;
        ready.pop();
        in_flight_[window_id] += t.bytes;
        if (is_ps(t)) start_ps(t);
        else committed_.push(t.id);
      }
    }
    if (!collective_busy_ && !committed_.empty()) {
      const int id = committed_.front();
      committed_.pop();
      collective_busy_ = true;
      begin(id);
      events_.push({now_ + collective_task_s(s_, s_.tasks[id]), 1, id});
    }
  }

  void start_ps(const Task& t) {
    begin(t.id);
    if (!ps_.start(t)) events_.push({now_ + ps_.fixed_s(), 1, t.id});
  }

  void begin(int id) { start_[id] = now_; }

  const Schedule& s_;
  int n_;
  std::vector<int> pending_;
  std::vector<double> ready_at_, start_, end_;
  std::vector<bool> finished_;
  std::vector<std::vector<int>> dependents_;
  PsNetwork ps_;
  // (time, 0 = ready / 1 = finish, task)
  std::priority_queue<std::tuple<double, int, int>, std::vector<std::tuple<double, int, int>>,
                      std::greater<>>
      events_;
  std::priority_queue<int, std::vector<int>, std::greater<>> compute_ready_;
  using ReadyQueue =
      std::priority_queue<std::pair<Key, int>, std::vector<std::pair<Key, int>>, std::greater<>>;
  std::map<int, ReadyQueue> comm_ready_;  // per credit window (server, or -1 for collectives)
  std::queue<int> committed_;
  std::map<int, double> in_flight_;
  double now_ = 0;
  bool compute_busy_ = false;
  bool collective_busy_ = false;
};

}  // namespace

Timeline AnalyticalBackend::run(const Schedule& schedule) const {
  return Simulation(schedule).run();
}

}  // namespace scalecast
