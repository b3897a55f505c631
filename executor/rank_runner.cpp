// The rank's event loop around the shared scheduling policy: compute on one lane, collectives one
// at a time in rank 0's order, parameter-server transfers on threads of their own (handed to the
// transport in dispatch order), in wall time.
#include "executor/rank_runner.h"
#include "sim/io/input_error.h"

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

namespace {

scheduling::PolicyOptions policy_options(const RankPlan& plan) {
  scheduling::PolicyOptions o;
  for (const RankTask& t : plan.tasks) {
    switch (t.role) {
      case Role::skip: o.lanes.push_back(scheduling::Lane::none); break;
      case Role::compute: o.lanes.push_back(scheduling::Lane::compute); break;
      case Role::channel: o.lanes.push_back(scheduling::Lane::channel); break;
      case Role::ps: o.lanes.push_back(scheduling::Lane::transfer); break;
    }
  }
  // Rank 0 picks the order of collectives (as Horovod's coordinator does); GPU ranks hold the
  // workers' credit; servers serve what that credit let through.
  o.decides_channel = plan.rank == 0;
  o.transfer_credit = plan.rank < plan.gpus;
  return o;
}

}  // namespace

RankRunner::RankRunner(const Schedule& s, const RankPlan& plan, Transport& transport, ChannelOrder& order,
                       RunOptions options)
    : s_(s), plan_(plan), transport_(transport), order_(order), options_(options),
      epoch_(std::chrono::steady_clock::now()), policy_(s, policy_options(plan)),
      compute_lane_(*this, &RankRunner::run_compute), channel_lane_(*this, &RankRunner::run_comm) {
  if (plan.tasks.size() != s.tasks.size()) throw std::logic_error("rank plan does not match the schedule");
  bool concurrent_ps = false;
  for (const RankTask& t : plan.tasks) concurrent_ps = concurrent_ps || t.role == Role::ps;
  if (concurrent_ps && !transport.concurrent_exchanges())
    throw InputError("the " + transport.name() +
                     " transport runs collectives only; run parameter-server schedules with gloo");
}

RankRunner::~RankRunner() {
  for (auto& [task, thread] : ps_threads_) thread.join();
  if (decisions_.joinable()) decisions_.join();
}

double RankRunner::now() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - epoch_).count();
}

void RankRunner::post(Message m) {
  {
    std::lock_guard<std::mutex> lock(m_);
    inbox_.push_back(std::move(m));
  }
  cv_.notify_one();
}

std::vector<TimelineEvent> RankRunner::run() {
  if (plan_.rank != 0 && plan_.rank < plan_.gpus && plan_.channel_tasks > 0) {
    awaiting_decisions_ = true;
    decisions_ = std::thread([this] { await_decisions(); });
  }
  for (int id : policy_.initial()) make_ready(id);
  while (!policy_.done()) {
    start_dispatched();
    if (running_ == 0 && !awaiting_decisions_ && delayed_.empty())
      throw std::logic_error("rank " + std::to_string(plan_.rank) + " stalled with " +
                             std::to_string(policy_.unfinished()) + " tasks left");
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
      make_ready(task);
    }
  }
  return events_;
}

// A task this rank has no part in ends as soon as it is ready here.
void RankRunner::make_ready(int id) {
  if (policy_.lane(id) == scheduling::Lane::none) {
    policy_.ready(id, now());
    release(policy_.finish(id));
  } else {
    policy_.ready(id, now());
  }
}

void RankRunner::release(const scheduling::Releases& released) {
  for (const scheduling::Release& r : released) {
    if (r.delay_s > 0) delayed_.push({now() + r.delay_s, r.task});
    else make_ready(r.task);
  }
}

void RankRunner::start_dispatched() {
  const scheduling::Dispatch d = policy_.dispatch();
  for (int id : d.committed) order_.publish(published_++, id);
  if (d.compute >= 0) {
    ++running_;
    compute_lane_.start(d.compute);
  }
  for (int id : d.transfers) {
    ++running_;
    const std::uint64_t ticket = tickets_++;
    ps_threads_.emplace(id, std::thread([this, id, ticket] { run_transfer(id, ticket); }));
  }
  if (d.channel >= 0) {
    ++running_;
    channel_lane_.start(d.channel);
  }
}

void RankRunner::on_message(const Message& m) {
  if (m.error) std::rethrow_exception(m.error);
  if (m.decision >= 0) {
    policy_.follow(m.decision);
    return;
  }
  if (m.task < 0) {  // the decision thread has received every decision
    awaiting_decisions_ = false;
    return;
  }
  const RankTask& rt = plan_.tasks[m.task];
  if (m.ran) events_.push_back({m.task, plan_.rank, rt.track, m.span.start_s, m.span.end_s});
  if (rt.role == Role::ps) {
    auto it = ps_threads_.find(m.task);
    it->second.join();
    ps_threads_.erase(it);
  }
  --running_;
  release(policy_.finish(m.task));
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

// A collective of the channel: the library's own, or the expansion's steps one after another.
void RankRunner::run_comm(int id) {
  const Task& t = s_.tasks[id];
  Message m;
  m.task = id;
  try {
    if (options_.reference) {
      m.span = transport_.collective(t.op, t.algorithm, static_cast<std::size_t>(t.bytes));
      m.ran = true;
    } else {
      m.span = run_steps(id, {});
      m.ran = !plan_.tasks[id].steps.empty();
    }
  } catch (const std::exception& e) {
    m.error = task_error(id, e);
  }
  post(std::move(m));
}

// A parameter-server transfer: waits for its ticket's turn, hands its first step to the transport
// and passes the turn on (also where it fails before handing anything over), then runs the rest.
void RankRunner::run_transfer(int id, std::uint64_t ticket) {
  {
    std::unique_lock<std::mutex> lock(turn_m_);
    turn_cv_.wait(lock, [&] { return turn_ == ticket; });
  }
  bool passed = false;
  const std::function<void()> pass_turn = [&] {
    if (passed) return;
    passed = true;
    {
      std::lock_guard<std::mutex> lock(turn_m_);
      ++turn_;
    }
    turn_cv_.notify_all();
  };
  Message m;
  m.task = id;
  try {
    m.span = run_steps(id, pass_turn);
    m.ran = true;
  } catch (const std::exception& e) {
    m.error = task_error(id, e);
  }
  pass_turn();
  post(std::move(m));
}

// A communication task's failure, naming the task.
std::exception_ptr RankRunner::task_error(int id, const std::exception& e) const {
  return std::make_exception_ptr(
      std::runtime_error("task " + std::to_string(id) + " (" + s_.name_of(s_.tasks[id]) + "): " + e.what()));
}

// This rank's steps of a task, one after another; `posted` is called once the first is handed over.
Interval RankRunner::run_steps(int id, const std::function<void()>& posted) {
  const RankTask& rt = plan_.tasks[id];
  Interval span{};
  for (std::size_t k = 0; k < rt.steps.size(); ++k) {
    const Interval step = transport_.exchange(rt.steps[k], k == 0 ? posted : std::function<void()>{});
    if (k == 0) span.start_s = step.start_s;
    span.end_s = step.end_s;
  }
  return span;
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
