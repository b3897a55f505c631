// The DAG controller: job actors run compute tasks (sleep) and communication tasks (SimGrid
// flows) and post their end; the controller gathers all events of an instant, then dispatches.
#include "sim/simgrid/dag_controller.h"

#include <cstdio>
#include <mutex>
#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Engine.hpp>

namespace scalecast::simgrid_backend {
namespace {

namespace sg4 = simgrid::s4u;

std::string track(const Task& t) {
  if (t.kind != TaskKind::comm) return "compute";
  if (t.op == CommOp::push || t.op == CommOp::pull)
    return to_string(t.op) + " server " + std::to_string(t.server);
  return "collective";
}

}  // namespace

DagController::DagController(const Schedule& s, CommRunner& runner, sg4::Host* host, bool progress)
    : s_(s),
      runner_(runner),
      host_(host),
      progress_(progress),
      n_(static_cast<int>(s.tasks.size())),
      pending_(n_),
      ready_at_(n_, 0),
      start_(n_, 0),
      end_(n_, 0),
      dependents_(n_),
      mutex_(sg4::Mutex::create()),
      wake_(sg4::ConditionVariable::create()) {
  for (const Task& t : s.tasks) {
    pending_[t.id] = static_cast<int>(t.deps.size());
    for (int d : t.deps) dependents_[d].push_back(t.id);
  }
}

void DagController::operator()() {
  wall_start_ = last_report_ = std::chrono::steady_clock::now();
  Batch batch;
  for (const Task& t : s_.tasks)
    if (pending_[t.id] == 0) batch.push({ready, t.id});
  process(batch);
  while (finished_ < n_) {
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
  inbox_.emplace_back(kind, id);
  wake_->notify_one();
}

// Lets every actor woken at this instant post its event before anything is dispatched, so
// that priorities see every candidate (the analytical backend's same-instant rule).
void DagController::settle() {
  size_t seen = 0;
  do {
    seen = inbox_.size();
    sg4::this_actor::yield();
  } while (inbox_.size() != seen);
}

void DagController::process(Batch& batch) {
  while (!batch.empty()) {
    const auto [kind, id] = batch.top();
    batch.pop();
    if (kind == ready)
      on_ready(id);
    else
      on_finish(id, batch);
  }
  dispatch();
}

DagController::Key DagController::key(const Task& t) const {
  if (s_.strategy.priority) return {t.priority, ready_at_[t.id], t.id};
  return {ready_at_[t.id], t.priority, t.id};
}

void DagController::on_ready(int id) {
  const Task& t = s_.tasks[id];
  ready_at_[id] = now_;
  if (t.kind != TaskKind::comm)
    compute_ready_.push(id);
  else if (t.op == CommOp::pull)
    start_ps(id);  // the credit was taken by its push
  else
    comm_ready_.push({key(t), id});
}

void DagController::on_finish(int id, Batch& batch) {
  const Task& t = s_.tasks[id];
  end_[id] = now_;
  ++finished_;
  if (t.kind != TaskKind::comm)
    compute_busy_ = false;
  else if (!is_ps(t))
    collective_busy_ = false;
  if (t.kind == TaskKind::comm && t.op != CommOp::push) in_flight_[window(t)] -= t.bytes;
  for (int d : dependents_[id]) {
    ready_at_[d] = std::max(ready_at_[d], now_);
    if (--pending_[d] > 0) continue;
    const double delay = s_.tasks[d].delay_s;
    if (delay <= 0) {
      batch.push({ready, d});
    } else {
      sg4::Actor::create("delay", host_, [this, d, delay] {
        sg4::this_actor::sleep_for(delay);
        post(ready, d);
      });
    }
  }
}

// ByteScheduler's credit: a message may be committed while the bytes in flight in its window
// (per parameter server, and one for collectives) stay within the credit, or when nothing is in
// flight there. Without credit PS transfers commit on readiness, and the collective channel
// takes the most urgent ready message only when it is idle.
bool DagController::may_commit(const Task& t) const {
  const double credit = s_.strategy.credit_bytes;
  const auto it = in_flight_.find(window(t));
  const double used = it == in_flight_.end() ? 0 : it->second;
  if (credit > 0) return used <= 0 || used + t.bytes <= credit;
  return is_ps(t) || (!collective_busy_ && committed_.empty());
}

void DagController::dispatch() {
  if (!compute_busy_ && !compute_ready_.empty()) {
    const int id = compute_ready_.top();
    compute_ready_.pop();
    compute_busy_ = true;
    const double duration = s_.tasks[id].duration_s;
    start(id, [duration] { sg4::this_actor::sleep_for(duration); });
  }
  std::vector<std::pair<Key, int>> blocked;  // a full window blocks its own messages only
  while (!comm_ready_.empty()) {
    const auto entry = comm_ready_.top();
    comm_ready_.pop();
    const Task& t = s_.tasks[entry.second];
    if (!may_commit(t)) {
      blocked.push_back(entry);
      continue;
    }
    in_flight_[window(t)] += t.bytes;
    if (is_ps(t))
      start_ps(t.id);
    else
      committed_.push(t.id);
  }
  for (const auto& entry : blocked) comm_ready_.push(entry);
  if (!collective_busy_ && !committed_.empty()) {
    const int id = committed_.front();
    committed_.pop();
    collective_busy_ = true;
    start(id, [this, id] { runner_.run(s_.tasks[id]); });
  }
}

void DagController::start_ps(int id) {
  start(id, [this, id] { runner_.run(s_.tasks[id]); });
}

void DagController::start(int id, std::function<void()> body) {
  start_[id] = now_;
  sg4::Actor::create(s_.tasks[id].name, host_, [this, id, body = std::move(body)] {
    body();
    post(finish, id);
  });
}

void DagController::report_progress() {
  const auto now = std::chrono::steady_clock::now();
  const auto since = [&](auto t) { return std::chrono::duration<double>(now - t).count(); };
  if (since(wall_start_) < 3 || since(last_report_) < 2) return;
  last_report_ = now;
  std::fprintf(stderr, "simgrid: %d/%d tasks, %.3f s simulated, %.0f s wall\n", finished_, n_, now_,
               since(wall_start_));
}

Timeline DagController::timeline() const {
  Timeline tl;
  tl.backend = "simgrid";
  for (const Task& t : s_.tasks)
    tl.events.push_back({t.id, -1, track(t), start_[t.id], end_[t.id]});
  return tl;
}

}  // namespace scalecast::simgrid_backend
