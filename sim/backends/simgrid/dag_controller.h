// The actor that drives the scheduling policy in simulated time: job actors run compute tasks
// (sleep) and communication tasks (SimGrid flows) and post their end; the controller gathers all
// events of an instant, then asks the policy what starts.
#pragma once

#include <chrono>
#include <functional>
#include <queue>
#include <simgrid/s4u/ConditionVariable.hpp>
#include <simgrid/s4u/Mutex.hpp>
#include <utility>
#include <vector>

#include "sim/types/schedule.h"
#include "sim/scheduling/compute_slowdown.h"
#include "sim/scheduling/scheduling_policy.h"
#include "sim/backends/simgrid/comm_runner.h"
#include "sim/types/timeline.h"

namespace scalecast::simgrid_backend {

// Compute tasks are alike on every GPU and a communication task ends for all GPUs together
// (each step of its expansion waits for its last transfer), so one compute stream stands for
// every GPU exactly, and events carry rank -1 as the analytical backend's do.
class DagController {
 public:
  DagController(const Schedule& schedule, CommRunner& runner, simgrid::s4u::Host* host,
                bool progress);

  void operator()();  // the actor's body; returns when every task has finished
  bool complete() const { return policy_.done(); }
  Timeline timeline() const;

 private:
  enum Kind { ready = 0, finish = 1 };  // same-instant order, as in the analytical backend
  using Batch =
      std::priority_queue<std::pair<int, int>, std::vector<std::pair<int, int>>, std::greater<>>;

  void post(Kind kind, int id);
  void settle();
  void process(Batch& batch);
  void start(int id, std::function<void()> body);
  void retime_compute();
  void report_progress();

  const Schedule& s_;
  CommRunner& runner_;
  simgrid::s4u::Host* host_;
  bool progress_;
  scheduling::SchedulingPolicy policy_;
  std::vector<double> start_, end_;
  std::vector<std::pair<Kind, int>> inbox_;
  simgrid::s4u::MutexPtr mutex_;
  simgrid::s4u::ConditionVariablePtr wake_;
  double now_ = 0;
  // The compute task running (-1: none), its work left, and the actor that ends it: restarted
  // whenever communication starts or stops changing its rate (Cluster::compute_slowdown).
  int compute_ = -1;
  scheduling::ComputeWork compute_work_;
  simgrid::s4u::ActorPtr compute_timer_;
  std::chrono::steady_clock::time_point wall_start_, last_report_;
};

}  // namespace scalecast::simgrid_backend
