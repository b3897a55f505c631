// The actor that walks a schedule's DAG in simulated time: one compute stream, one collective
// channel (FIFO or priority, ByteScheduler credit per window) and concurrent PS transfers.
#pragma once

#include <chrono>
#include <functional>
#include <map>
#include <queue>
#include <simgrid/s4u/ConditionVariable.hpp>
#include <simgrid/s4u/Mutex.hpp>
#include <tuple>
#include <utility>
#include <vector>

#include "sim/schedule.h"
#include "sim/simgrid/comm_runner.h"
#include "sim/timeline.h"

namespace scalecast::simgrid_backend {

// Compute tasks are alike on every GPU and a communication task ends for all GPUs together
// (each step of its expansion waits for its last transfer), so one compute stream stands for
// every GPU exactly, and events carry rank -1 as the analytical backend's do.
class DagController {
 public:
  DagController(const Schedule& schedule, CommRunner& runner, simgrid::s4u::Host* host,
                bool progress);

  void operator()();  // the actor's body; returns when every task has finished
  bool complete() const { return finished_ == n_; }
  Timeline timeline() const;

 private:
  enum Kind { ready = 0, finish = 1 };  // same-instant order, as in the analytical backend
  using Key = std::tuple<double, double, int>;
  using Batch =
      std::priority_queue<std::pair<int, int>, std::vector<std::pair<int, int>>, std::greater<>>;

  void post(Kind kind, int id);
  void settle();
  void process(Batch& batch);
  void on_ready(int id);
  void on_finish(int id, Batch& batch);
  void dispatch();
  void start(int id, std::function<void()> body);
  void start_ps(int id);
  Key key(const Task& t) const;
  static bool is_ps(const Task& t) { return t.op == CommOp::push || t.op == CommOp::pull; }
  static int window(const Task& t) { return is_ps(t) ? t.server : -1; }  // credit window
  bool may_commit(const Task& t) const;
  void report_progress();

  const Schedule& s_;
  CommRunner& runner_;
  simgrid::s4u::Host* host_;
  bool progress_;
  int n_, finished_ = 0;
  std::vector<int> pending_;
  std::vector<double> ready_at_, start_, end_;
  std::vector<std::vector<int>> dependents_;
  std::vector<std::pair<Kind, int>> inbox_;
  simgrid::s4u::MutexPtr mutex_;
  simgrid::s4u::ConditionVariablePtr wake_;
  std::priority_queue<int, std::vector<int>, std::greater<>> compute_ready_;
  std::priority_queue<std::pair<Key, int>, std::vector<std::pair<Key, int>>, std::greater<>>
      comm_ready_;
  std::queue<int> committed_;
  std::map<int, double> in_flight_;  // bytes committed per credit window
  double now_ = 0;
  bool compute_busy_ = false, collective_busy_ = false;
  std::chrono::steady_clock::time_point wall_start_, last_report_;
};

}  // namespace scalecast::simgrid_backend
