// The rank's event loop: dependencies counted down as tasks finish, compute in task order on one
// lane, collectives one at a time in rank 0's order (priority and credit as the analytical
// backend applies them), parameter-server transfers concurrently within the credit.
#include "executor/rank_runner.h"

#include <stdexcept>

namespace scalecast::executor {

RankRunner::Lane::Lane(RankRunner& runner, void (RankRunner::*body)(int))
    : thread_([this, &runner, body] {
        for (;;) {
          int task = -1;
          {
            std::unique_lock<std::mutex> lock(m_);
            cv_.wait(lock, [&] { return stop_ || next_ >= 0; });
            if (stop_) return;
            task = next_;
            next_ = -1;
          }
          (runner.*body)(task);
        }
      }) {}

RankRunner::Lane::~Lane() {
  {
    std::lock_guard<std::mutex> lock(m_);
    stop_ = true;
  }
  cv_.notify_one();
  thread_.join();
}

void RankRunner::Lane::start(int task) {
  {
    std::lock_guard<std::mutex> lock(m_);
    next_ = task;
  }
  cv_.notify_one();
}

RankRunner::RankRunner(const Schedule& s, const RankPlan& plan, Transport& transport, ChannelOrder& order,
                       RunOptions options)
    : s_(s), plan_(plan), transport_(transport), order_(order), options_(options),
      epoch_(std::chrono::steady_clock::now()), pending_(s.tasks.size()), ready_at_(s.tasks.size(), 0),
      channel_ready_(s.tasks.size(), false), dependents_(s.tasks.size()),
      compute_lane_(*this, &RankRunner::run_compute), channel_lane_(*this, &RankRunner::run_comm) {
  if (plan.tasks.size() != s.tasks.size()) throw std::logic_error("rank plan does not match the schedule");
  bool concurrent_ps = false;
  for (const RankTask& t : plan.tasks) concurrent_ps = concurrent_ps || t.role == Role::ps;
  if (concurrent_ps && !transport.concurrent_exchanges())
    throw std::invalid_argument("the " + transport.name() +
                                " transport runs collectives only; run parameter-server schedules with gloo");
}

RankRunner::~RankRunner() {
  for (auto& [task, thread] : ps_threads_) thread.join();
  if (decisions_.joinable()) decisions_.join();
}

double RankRunner::now() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - epoch_).count();
}

bool RankRunner::counts_credit(int id) const {
  if (s_.strategy.credit_bytes <= 0) return false;
  const Role role = plan_.tasks[id].role;
  return (role == Role::channel && coordinator()) || (role == Role::ps && plan_.rank < plan_.gpus);
}

int RankRunner::window(int id) const {
  const Task& t = s_.tasks[id];
  return t.op == CommOp::push || t.op == CommOp::pull ? t.server : -1;
}

RankRunner::Key RankRunner::key(int id) const {
  const Task& t = s_.tasks[id];
  if (s_.strategy.priority) return {t.priority, ready_at_[id], id};
  return {ready_at_[id], t.priority, id};
}

void RankRunner::post(Message m) {
  {
    std::lock_guard<std::mutex> lock(m_);
    inbox_.push_back(std::move(m));
  }
  cv_.notify_one();
}

std::vector<TimelineEvent> RankRunner::run() {
  const int n = static_cast<int>(s_.tasks.size());
  for (const Task& t : s_.tasks) {
    pending_[t.id] = static_cast<int>(t.deps.size());
    for (int d : t.deps) dependents_[d].push_back(t.id);
  }
  if (plan_.rank != 0 && plan_.rank < plan_.gpus && plan_.channel_tasks > 0) {
    awaiting_decisions_ = true;
    decisions_ = std::thread([this] { await_decisions(); });
  }
  // Collected first: readying a task this rank skips finishes it, which may ready later ones.
  std::vector<int> roots;
  for (const Task& t : s_.tasks)
    if (pending_[t.id] == 0) roots.push_back(t.id);
  for (int id : roots) ready(id);
  while (done_ < n) {
    dispatch();
    const bool running = compute_busy_ || channel_busy_ || !ps_threads_.empty() || awaiting_decisions_;
    if (!running && delayed_.empty())
      throw std::logic_error("rank " + std::to_string(plan_.rank) + " stalled with " + std::to_string(n - done_) +
                             " tasks left");
    std::vector<Message> inbox;
    {
      std::unique_lock<std::mutex> lock(m_);
      auto has_mail = [&] { return !inbox_.empty(); };
      if (delayed_.empty()) cv_.wait(lock, has_mail);
      else cv_.wait_until(lock, epoch_ + std::chrono::duration<double>(delayed_.top().first), has_mail);
      inbox.swap(inbox_);
    }
    for (const Message& m : inbox) on_message(m);
    while (!delayed_.empty() && delayed_.top().first <= now()) {
      const int task = delayed_.top().second;
      delayed_.pop();
      ready(task);
    }
  }
  return events_;
}

void RankRunner::ready(int id) {
  ready_at_[id] = now();
  const Task& t = s_.tasks[id];
  switch (plan_.tasks[id].role) {
    case Role::skip:
      finish(id);
      break;
    case Role::compute:
      compute_ready_.push(id);
      break;
    case Role::channel:
      channel_ready_[id] = true;
      if (coordinator()) comm_ready_.push({key(id), id});
      break;
    case Role::ps:
      if (t.op == CommOp::push && counts_credit(id)) ps_ready_.push({key(id), id});
      else start_ps(id);
      break;
  }
}

void RankRunner::finish(int id) {
  ++done_;
  for (int d : dependents_[id]) {
    if (--pending_[d] > 0) continue;
    const double delay = s_.tasks[d].delay_s;
    if (delay > 0) delayed_.push({now() + delay, d});
    else ready(d);
  }
}

bool RankRunner::may_commit(int id) const {
  const double credit = s_.strategy.credit_bytes;
  const auto it = in_flight_.find(window(id));
  const double used = it == in_flight_.end() ? 0 : it->second;
  return used <= 0 || used + s_.tasks[id].bytes <= credit;
}

void RankRunner::commit_within_credit(ReadyQueue& queue, void (RankRunner::*start)(int)) {
  // A full window holds back the less urgent messages of that window only.
  std::vector<std::pair<Key, int>> blocked;
  while (!queue.empty()) {
    const auto entry = queue.top();
    queue.pop();
    if (!may_commit(entry.second)) {
      blocked.push_back(entry);
      continue;
    }
    in_flight_[window(entry.second)] += s_.tasks[entry.second].bytes;
    (this->*start)(entry.second);
  }
  for (const auto& entry : blocked) queue.push(entry);
}

void RankRunner::decide(int id) {
  order_.publish(published_++, id);
  decided_.push_back(id);
}

void RankRunner::dispatch() {
  if (!compute_busy_ && !compute_ready_.empty()) {
    compute_busy_ = true;
    compute_lane_.start(compute_ready_.top());
    compute_ready_.pop();
  }
  // ByteScheduler's credit, as the analytical backend keeps it: one window per parameter server
  // and one for the collectives; without credit, pushes start when ready and rank 0 commits a
  // collective only when the channel is idle, so that it picks the most urgent one then.
  commit_within_credit(ps_ready_, &RankRunner::start_ps);
  if (coordinator()) {
    if (s_.strategy.credit_bytes > 0) {
      commit_within_credit(comm_ready_, &RankRunner::decide);
    } else if (!channel_busy_ && decided_.empty() && !comm_ready_.empty()) {
      decide(comm_ready_.top().second);
      comm_ready_.pop();
    }
  }
  if (!channel_busy_ && !decided_.empty() && channel_ready_[decided_.front()]) {
    channel_busy_ = true;
    channel_lane_.start(decided_.front());
    decided_.pop_front();
  }
}

void RankRunner::on_message(const Message& m) {
  if (m.error) std::rethrow_exception(m.error);
  if (m.decision >= 0) {
    decided_.push_back(m.decision);
    return;
  }
  if (m.task < 0) {  // the decision thread has received every decision
    awaiting_decisions_ = false;
    return;
  }
  const Task& t = s_.tasks[m.task];
  const RankTask& rt = plan_.tasks[m.task];
  if (m.ran) events_.push_back({t.id, plan_.rank, rt.track, m.span.start_s, m.span.end_s});
  if (rt.role == Role::compute) compute_busy_ = false;
  if (rt.role == Role::channel) channel_busy_ = false;
  if (rt.role == Role::ps) {
    auto it = ps_threads_.find(m.task);
    it->second.join();
    ps_threads_.erase(it);
  }
  // The credit a push or a committed collective took is returned when its pull or itself ends.
  if (counts_credit(m.task) && t.op != CommOp::push) in_flight_[window(m.task)] -= t.bytes;
  finish(m.task);
}

void RankRunner::start_ps(int id) {
  ps_threads_.emplace(id, std::thread([this, id] { run_comm(id); }));
}

void RankRunner::run_compute(int id) {
  Message m;
  m.task = id;
  try {
    m.span = transport_.compute(s_.tasks[id].duration_s * options_.compute_scale);
    m.ran = true;
  } catch (...) {
    m.error = std::current_exception();
  }
  post(std::move(m));
}

void RankRunner::run_comm(int id) {
  const Task& t = s_.tasks[id];
  const RankTask& rt = plan_.tasks[id];
  Message m;
  m.task = id;
  try {
    if (options_.reference && rt.role == Role::channel) {
      m.span = transport_.collective(t.op, t.algorithm, static_cast<std::size_t>(t.bytes));
      m.ran = true;
    } else {
      for (std::size_t k = 0; k < rt.steps.size(); ++k) {
        const Interval step = transport_.exchange(rt.steps[k]);
        if (k == 0) m.span.start_s = step.start_s;
        m.span.end_s = step.end_s;
        m.ran = true;
      }
    }
  } catch (const std::exception& e) {
    m.error = std::make_exception_ptr(
        std::runtime_error("task " + std::to_string(id) + " (" + t.name + "): " + e.what()));
  }
  post(std::move(m));
}

void RankRunner::await_decisions() {
  try {
    for (int k = 0; k < plan_.channel_tasks; ++k) {
      Message m;
      m.decision = order_.await(k);
      if (m.decision < 0 || m.decision >= static_cast<int>(s_.tasks.size()) ||
          plan_.tasks[m.decision].role != Role::channel)
        throw std::runtime_error("rank 0 picked task " + std::to_string(m.decision) + ", not a collective");
      post(std::move(m));
    }
    post(Message{});
  } catch (...) {
    Message m;
    m.error = std::current_exception();
    post(std::move(m));
  }
}

}  // namespace scalecast::executor
