// The DAG controller: job actors run compute tasks (sleep) and communication tasks (SimGrid
// flows) and post their end; the controller gathers all events of an instant, then dispatches.
#include "sim/backends/simgrid/dag_controller.h"

#include <algorithm>
#include <cstdio>
#include <mutex>
#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Engine.hpp>
#include <xbt/log.h>

#include "sim/backends/simgrid/ordered_turns.h"

XBT_LOG_NEW_DEFAULT_SUBCATEGORY(scalecast_dag, scalecast, "The DAG controller: tasks released and completed");

namespace scalecast::simgrid_backend {

namespace sg4 = simgrid::s4u;

DagController::DagController(const Schedule& s, CommRunner& runner, sg4::Host* host, bool progress)
    : s_(s),
      runner_(runner),
      host_(host),
      progress_(progress),
      policy_(s),
      start_(s.tasks.size(), 0),
      end_(s.tasks.size(), 0),
      mutex_(sg4::Mutex::create()),
      wake_(sg4::ConditionVariable::create()) {}

void DagController::operator()() {
  wall_start_ = last_report_ = std::chrono::steady_clock::now();
  Batch batch;
  for (int id : policy_.initial()) batch.push({ready, id});
  process(batch);
  while (!policy_.done()) {
    {
      std::unique_lock lock(*mutex_);
      wake_->wait(lock, [this] { return !inbox_.empty(); });
    }
    settle();
    now_ = sg4::Engine::get_clock();
    for (const auto& [kind, id] : inbox_) batch.push({kind, id});
    inbox_.clear();
    process(batch);
    if (progress_) report_progress();
  }
}

void DagController::post(Kind kind, int id) {
  XBT_DEBUG("task %d %s at %.9f s", id, kind == ready ? "ready" : "done", sg4::Engine::get_clock());
  inbox_.emplace_back(kind, id);
  wake_->notify_one();
}

// Lets every actor woken at this instant post its event before anything is dispatched, so
// that priorities see every candidate (the analytical backend's same-instant rule).
void DagController::settle() {
  simgrid_backend::settle([this] { return inbox_.size(); });
}

void DagController::process(Batch& batch) {
  while (!batch.empty()) {
    const auto [kind, id] = batch.top();
    batch.pop();
    if (kind == ready) {
      policy_.ready(id, now_);
      continue;
    }
    end_[id] = now_;
    if (id == compute_) {
      compute_ = -1;
      compute_timer_ = nullptr;
    }
    for (const scheduling::Release& r : policy_.finish(id)) {
      if (r.delay_s <= 0) {
        batch.push({ready, r.task});
        continue;
      }
      sg4::Actor::create("delay", host_, [this, r] {
        sg4::this_actor::sleep_for(r.delay_s);
        post(ready, r.task);
      });
    }
  }
  const scheduling::Dispatch d = policy_.dispatch();
  if (d.compute >= 0) {
    compute_ = d.compute;
    start_[compute_] = now_;
    compute_work_.start(s_.tasks[compute_].duration_s, now_);
  }
  for (int id : d.transfers) start(id, [this, id] { runner_.run(s_.tasks[id]); });
  if (d.channel >= 0) start(d.channel, [this, id = d.channel] { runner_.run(s_.tasks[id]); });
  retime_compute();
}

// A compute task just started, or its rate changed: its end actor sleeps until the end under the
// rate of this instant (the analytical backend's same rule).
void DagController::retime_compute() {
  if (compute_ < 0) return;
  const bool started = compute_timer_ == nullptr;
  const bool moved = compute_work_.retime(now_, scheduling::compute_rate(s_.cluster, policy_.communicating()));
  if (!started && !moved) return;
  if (compute_timer_) compute_timer_->kill();
  const double sleep = std::max(0.0, compute_work_.end_s() - now_);
  compute_timer_ = sg4::Actor::create(s_.name_of(s_.tasks[compute_]), host_, [this, id = compute_, sleep] {
    sg4::this_actor::sleep_for(sleep);
    post(finish, id);
  });
}

void DagController::start(int id, std::function<void()> body) {
  start_[id] = now_;
  sg4::Actor::create(s_.name_of(s_.tasks[id]), host_, [this, id, body = std::move(body)] {
    body();
    post(finish, id);
  });
}

void DagController::report_progress() {
  const auto now = std::chrono::steady_clock::now();
  const auto since = [&](auto t) { return std::chrono::duration<double>(now - t).count(); };
  if (since(wall_start_) < 3 || since(last_report_) < 2) return;
  last_report_ = now;
  const int n = static_cast<int>(s_.tasks.size());
  std::fprintf(stderr, "simgrid: %d/%d tasks, %.3f s simulated, %.0f s wall\n", n - policy_.unfinished(), n, now_,
               since(wall_start_));
}

Timeline DagController::timeline() const {
  Timeline tl;
  tl.backend = "simgrid";
  tl.commits = policy_.commit_log();
  for (const Task& t : s_.tasks)
    tl.events.push_back({t.id, -1, track_name(t), start_[t.id], end_[t.id]});
  return tl;
}

}  // namespace scalecast::simgrid_backend
