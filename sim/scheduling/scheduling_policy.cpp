// The scheduling policy's state machine: dependencies counted down, ready queues per credit
// window in priority-key order, ByteScheduler's head-of-line credit, and the channel's order.
#include "sim/scheduling/scheduling_policy.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace scalecast::scheduling {

Lane lane_of(const Task& t) {
  if (t.kind != TaskKind::comm) return Lane::compute;
  if (t.op == CommOp::push || t.op == CommOp::pull) return Lane::transfer;
  return Lane::channel;
}

SchedulingPolicy::SchedulingPolicy(const Schedule& s, PolicyOptions options)
    : s_(s), o_(std::move(options)) {
  const int n = static_cast<int>(s.tasks.size());
  if (!o_.lanes.empty() && static_cast<int>(o_.lanes.size()) != n)
    throw std::logic_error("scheduling policy: lanes given for " + std::to_string(o_.lanes.size()) +
                           " tasks, the schedule has " + std::to_string(n));
  lanes_ = o_.lanes;
  lanes_.reserve(n);
  pending_.assign(n, 0);
  first_dependent_.assign(n + 1, 0);
  ready_at_.assign(n, 0);
  is_ready_.assign(n, 0);
  is_finished_.assign(n, 0);
  for (int id = 0; id < n; ++id) {
    const Task& t = s.tasks[id];
    if (t.id != id) throw std::logic_error("task " + std::to_string(id) + " has id " + std::to_string(t.id));
    if (o_.lanes.empty()) lanes_.push_back(lane_of(t));
    if (lanes_[id] == Lane::transfer && t.server < 0)
      throw std::logic_error("task " + std::to_string(id) + " names no parameter server");
    pending_[id] = static_cast<int>(t.deps.size());
    for (int d : t.deps) {
      if (d < 0 || d >= n || d == id)
        throw std::logic_error("task " + std::to_string(id) + " depends on task " + std::to_string(d) +
                               ", which is not another task of the schedule");
      ++first_dependent_[d + 1];
    }
  }
  for (int id = 0; id < n; ++id) first_dependent_[id + 1] += first_dependent_[id];
  dependents_.resize(first_dependent_[n]);
  std::vector<int> filled(first_dependent_.begin(), first_dependent_.end() - 1);
  for (int id = 0; id < n; ++id)
    for (int d : s.tasks[id].deps) dependents_[filled[d]++] = id;
  message_ready_.resize(kWindows);
  in_flight_.assign(kWindows, 0);
}

std::vector<int> SchedulingPolicy::initial() const {
  std::vector<int> out;
  for (int id = 0; id < static_cast<int>(pending_.size()); ++id)
    if (pending_[id] == 0) out.push_back(id);
  return out;
}

SchedulingPolicy::Key SchedulingPolicy::key(int id) const {
  const Task& t = s_.tasks[id];
  if (s_.strategy.priority) return {t.priority, ready_at_[id], id};
  return {ready_at_[id], t.priority, id};
}

int SchedulingPolicy::window(int id) const {
  return lanes_[id] == Lane::transfer ? 1 : 0;
}

bool SchedulingPolicy::takes_credit(int id) const {
  if (lanes_[id] == Lane::channel) return o_.decides_channel;
  return lanes_[id] == Lane::transfer && s_.tasks[id].op == CommOp::push && o_.transfer_credit;
}

void SchedulingPolicy::ready(int id, double at) {
  if (is_ready_[id] || pending_[id] > 0)
    throw std::logic_error("scheduling policy: task " + std::to_string(id) + " made ready twice or too early");
  ready_at_[id] = at;
  is_ready_[id] = true;
  switch (lanes_[id]) {
    case Lane::none:
      break;  // the driver finishes it at once
    case Lane::compute:
      compute_ready_.push(id);
      break;
    case Lane::channel:
      if (o_.decides_channel) message_ready_[window(id)].push({key(id), id});
      break;  // otherwise it waits for its turn in the coordinator's order
    case Lane::transfer:
      if (takes_credit(id))
        message_ready_[window(id)].push({key(id), id});
      else
        ready_transfers_.push_back(id);
      break;
  }
}

Releases SchedulingPolicy::finish(int id) {
  if (is_finished_[id] || !is_ready_[id])
    throw std::logic_error("scheduling policy: task " + std::to_string(id) + " finished twice or before it was ready");
  is_finished_[id] = true;
  ++finished_;
  const Task& t = s_.tasks[id];
  if (lanes_[id] == Lane::compute) compute_busy_ = false;
  if (lanes_[id] == Lane::channel || lanes_[id] == Lane::transfer) --communicating_;
  if (lanes_[id] == Lane::channel) channel_busy_ = false;
  // Credit comes back when the collective or the push ends (ByteScheduler's kvstore task notifies
  // the core from the push's completion callback, not the pull's).
  if (takes_credit(id)) in_flight_[window(id)] -= t.bytes;
  Releases out;
  for (int i = first_dependent_[id]; i < first_dependent_[id + 1]; ++i) {
    const int d = dependents_[i];
    if (--pending_[d] == 0) out.push_back({d, s_.tasks[d].delay_s});
  }
  return out;
}

void SchedulingPolicy::follow(int id) {
  if (o_.decides_channel || lanes_[id] != Lane::channel)
    throw std::logic_error("scheduling policy: follow() of task " + std::to_string(id));
  committed_.push_back(id);
}

void SchedulingPolicy::commit_ready_messages(Dispatch& out) {
  const double credit = s_.strategy.credit_bytes;
  for (std::size_t w = 0; w < message_ready_.size(); ++w) {
    ReadyQueue& queue = message_ready_[w];
    while (!queue.empty()) {
      const int id = queue.top().second;
      const bool collective = lanes_[id] == Lane::channel;
      if (credit > 0) {
        if (in_flight_[w] >= credit) break;  // no credit left: the head waits, and all behind it
      } else if (collective && (channel_busy_ || !committed_.empty())) {
        break;  // without credit, pick the most urgent collective when the channel frees
      }
      queue.pop();
      in_flight_[w] += s_.tasks[id].bytes;
      commit_log_.push_back(id);
      if (collective) {
        committed_.push_back(id);
        out.committed.push_back(id);
      } else {
        out.transfers.push_back(id);
      }
    }
  }
}

Dispatch SchedulingPolicy::dispatch() {
  Dispatch out;
  if (!compute_busy_ && !compute_ready_.empty()) {
    out.compute = compute_ready_.top();
    compute_ready_.pop();
    compute_busy_ = true;
  }
  commit_ready_messages(out);
  out.transfers.insert(out.transfers.end(), ready_transfers_.begin(), ready_transfers_.end());
  ready_transfers_.clear();
  if (!channel_busy_ && !committed_.empty() && is_ready_[committed_.front()]) {
    out.channel = committed_.front();
    committed_.pop_front();
    channel_busy_ = true;
  }
  communicating_ += static_cast<int>(out.transfers.size()) + (out.channel >= 0 ? 1 : 0);
  return out;
}

}  // namespace scalecast::scheduling
