// The analytical list scheduler: an event loop over the schedule's DAG with one compute stream,
// one collective channel (priority order and credit window from the strategy) and PS link pipes.
#include "sim/analytical/analytical_backend.h"

#include <algorithm>
#include <map>
#include <queue>
#include <tuple>

#include "sim/analytical/comm_costs.h"

namespace scalecast {
namespace {

using Key = std::tuple<double, double, int>;  // ordering key of a ready task, smallest first

// Byte-time cursors of the links parameter-server traffic crosses; a transfer ends when its
// bytes have passed every link it uses, each link serving transfers in the order they start.
class PsPipes {
 public:
  explicit PsPipes(int servers) : server_down_(servers, 0), server_up_(servers, 0) {}

  double transfer(const Task& t, const PsLinkTimes& lt, double now) {
    const bool push = t.op == CommOp::push;
    double& worker = push ? worker_up_ : worker_down_;
    double& server = lt.colocated ? (push ? worker_down_ : worker_up_)
                                  : (push ? server_down_[t.server] : server_up_[t.server]);
    const double fabric_end = advance(fabric_, now, lt.worker_fabric_s);
    const double worker_end = advance(worker, now, lt.worker_nic_s);
    const double server_end = advance(server, now, lt.server_nic_s);
    return std::max({fabric_end, worker_end, server_end}) + lt.fixed_s;
  }

 private:
  static double advance(double& cursor, double now, double busy) {
    if (busy <= 0) return now;
    cursor = std::max(cursor, now) + busy;
    return cursor;
  }

  double fabric_ = 0, worker_up_ = 0, worker_down_ = 0;
  std::vector<double> server_down_, server_up_;
};

class Simulation {
 public:
  explicit Simulation(const Schedule& s)
      : s_(s), n_(static_cast<int>(s.tasks.size())), pending_(n_), ready_at_(n_, 0),
        start_(n_, 0), end_(n_, 0), dependents_(n_),
        pipes_(std::max(1, s.cluster.ps.count(s.cluster.nodes, s.cluster.gpus()))) {
    for (const Task& t : s.tasks) {
      pending_[t.id] = static_cast<int>(t.deps.size());
      for (int d : t.deps) dependents_[d].push_back(t.id);
    }
  }

  Timeline run() {
    for (const Task& t : s_.tasks)
      if (pending_[t.id] == 0) events_.push({0.0, 0, t.id});
    while (!events_.empty()) {
      now_ = std::get<0>(events_.top());
      // Everything that happens at this instant first, so that priorities see every candidate.
      while (!events_.empty() && std::get<0>(events_.top()) == now_) {
        auto [time, kind, id] = events_.top();
        events_.pop();
        if (kind == 0) on_ready(id);
        else on_finish(id);
      }
      dispatch();
    }
    Timeline tl;
    tl.backend = "analytical";
    for (const Task& t : s_.tasks) tl.events.push_back({t.id, -1, track(t), start_[t.id], end_[t.id]});
    return tl;
  }

 private:
  std::string track(const Task& t) const {
    if (t.kind != TaskKind::comm) return "compute";
    if (t.op == CommOp::push || t.op == CommOp::pull)
      return to_string(t.op) + " server " + std::to_string(t.server);
    return "collective";
  }

  Key key(const Task& t) const {
    if (s_.strategy.priority) return {t.priority, ready_at_[t.id], t.id};
    return {ready_at_[t.id], t.priority, t.id};
  }

  bool is_ps(const Task& t) const { return t.op == CommOp::push || t.op == CommOp::pull; }

  void on_ready(int id) {
    const Task& t = s_.tasks[id];
    ready_at_[id] = now_;
    if (t.kind != TaskKind::comm) compute_ready_.push(id);
    else if (t.op == CommOp::pull) start_ps(t);  // the credit was taken by its push
    else comm_ready_.push({key(t), id});
  }

  void on_finish(int id) {
    const Task& t = s_.tasks[id];
    if (t.kind != TaskKind::comm) compute_busy_ = false;
    else if (!is_ps(t)) collective_busy_ = false;
    if (t.kind == TaskKind::comm && t.op != CommOp::push) in_flight_ -= t.bytes;
    for (int d : dependents_[id]) {
      ready_at_[d] = std::max(ready_at_[d], now_);
      if (--pending_[d] == 0) {
        const double delay = s_.tasks[d].delay_s;
        events_.push({now_ + delay, 0, d});
      }
    }
  }

  void dispatch() {
    if (!compute_busy_ && !compute_ready_.empty()) {
      const int id = compute_ready_.top();
      compute_ready_.pop();
      compute_busy_ = true;
      finish(id, now_, now_ + s_.tasks[id].duration_s);
    }
    const double credit = s_.strategy.credit_bytes;
    if (credit > 0) {
      // ByteScheduler: commit the most urgent ready messages while the credit allows.
      while (!comm_ready_.empty()) {
        const Task& t = s_.tasks[comm_ready_.top().second];
        if (in_flight_ > 0 && in_flight_ + t.bytes > credit) break;
        comm_ready_.pop();
        in_flight_ += t.bytes;
        if (is_ps(t)) start_ps(t);
        else committed_.push(t.id);
      }
    } else {
      while (!comm_ready_.empty() && is_ps(s_.tasks[comm_ready_.top().second])) {
        const Task& t = s_.tasks[comm_ready_.top().second];
        comm_ready_.pop();
        in_flight_ += t.bytes;
        start_ps(t);
      }
      if (!collective_busy_ && !comm_ready_.empty()) {
        committed_.push(comm_ready_.top().second);
        in_flight_ += s_.tasks[comm_ready_.top().second].bytes;
        comm_ready_.pop();
      }
    }
    if (!collective_busy_ && !committed_.empty()) {
      const int id = committed_.front();
      committed_.pop();
      collective_busy_ = true;
      finish(id, now_, now_ + collective_task_s(s_, s_.tasks[id]));
    }
  }

  void start_ps(const Task& t) {
    finish(t.id, now_, pipes_.transfer(t, ps_link_times(s_, t), now_));
  }

  void finish(int id, double start, double end) {
    start_[id] = start;
    end_[id] = end;
    events_.push({end, 1, id});
  }

  const Schedule& s_;
  int n_;
  std::vector<int> pending_;
  std::vector<double> ready_at_, start_, end_;
  std::vector<std::vector<int>> dependents_;
  PsPipes pipes_;
  // (time, 0 = ready / 1 = finish, task)
  std::priority_queue<std::tuple<double, int, int>, std::vector<std::tuple<double, int, int>>,
                      std::greater<>>
      events_;
  std::priority_queue<int, std::vector<int>, std::greater<>> compute_ready_;
  std::priority_queue<std::pair<Key, int>, std::vector<std::pair<Key, int>>, std::greater<>>
      comm_ready_;
  std::queue<int> committed_;
  double now_ = 0;
  double in_flight_ = 0;
  bool compute_busy_ = false;
  bool collective_busy_ = false;
};

}  // namespace

Timeline AnalyticalBackend::run(const Schedule& schedule) const {
  return Simulation(schedule).run();
}

}  // namespace scalecast
