// The one scheduling policy every backend drives: dependency state, ready queues per credit
// window, the priority key, credit accounting and commit order. It has no clock and no threads.
#pragma once

#include <deque>
#include <queue>
#include <tuple>
#include <vector>

#include <boost/container/small_vector.hpp>

#include "sim/types/schedule.h"

namespace scalecast::scheduling {

// Where a task runs on one GPU (or server) process.
enum class Lane {
  none,      // nothing to do here: it ends as soon as its dependencies have (a rank not involved)
  compute,   // the compute stream: one task at a time, lowest task id first
  channel,   // the collective channel: one at a time, in commit order
  transfer,  // a parameter-server transfer: any number at once
};

// The lane of a task as every GPU runs it: compute, collectives on the channel, push and pull
// as transfers.
Lane lane_of(const Task& task);

// A task whose dependencies have all ended; it becomes ready after delay_s (a fusion buffer
// waiting for its cycle tick). The driver owns time: it calls ready() once the delay is over.
struct Release {
  int task = -1;
  double delay_s = 0;
};
// What one task's end releases: mostly one or two tasks, kept inline.
using Releases = boost::container::small_vector<Release, 4>;

// What may start now, as decided by dispatch().
struct Dispatch {
  int compute = -1;             // the compute task to start (-1: none)
  int channel = -1;             // the collective to start on the channel (-1: none)
  std::vector<int> transfers;   // parameter-server transfers to start, in commit order
  std::vector<int> committed;   // collectives committed by this call, in order (a coordinator
                                // publishes them to the ranks that follow it)
};

struct PolicyOptions {
  std::vector<Lane> lanes;      // per task; empty: lane_of() of every task
  // false: this process does not pick the order of collectives; follow() gives it, and the
  // channel runs them in that order once each is ready here.
  bool decides_channel = true;
  // false: pushes start when ready and take no credit (a parameter server, which serves what
  // the workers' credit let through).
  bool transfer_credit = true;
};

// The rules, in one place:
// - Compute runs in task-id order, one task at a time.
// - Ready messages wait in one queue per credit window: one for the collectives and one for the
//   pushes to every parameter server (ByteScheduler's core keeps one queue and one credit per
//   worker). The queue's order is the priority key: with the strategy's
//   priority, (priority, ready time, id), otherwise (ready time, priority, id).
// - Credit (ByteScheduler, Peng et al., SOSP'19; bytescheduler/common/bytecore.py, ByteCore.
//   _loop): the scheduler takes the head of its priority queue and commits it while the credit
//   left is positive, then subtracts the message's size, so the credit may be overdrawn by one
//   message; it never skips the head for a smaller message behind it (head-of-line). Credit
//   comes back when a collective or a push ends (bytescheduler/mxnet/kvstore_task.py notifies
//   the core from the push's completion callback).
// - Without credit, pushes commit when ready and a collective is committed only when the
//   channel is idle with nothing committed, so that it is the most urgent one at that moment.
// - Committed collectives run on the channel one at a time, first committed first. Pulls take no
//   credit: they start when ready.
class SchedulingPolicy {
 public:
  explicit SchedulingPolicy(const Schedule& schedule, PolicyOptions options = {});

  // Tasks without dependencies, to be made ready at the start.
  std::vector<int> initial() const;
  // The task's dependencies have ended and its delay is over, at time `at` (the driver's clock;
  // it only orders ready messages by readiness).
  void ready(int task, double at);
  // The task ended: frees its lane, returns its credit, and releases the tasks whose last
  // dependency it was.
  Releases finish(int task);
  // The next collective in the coordinator's order (decides_channel == false).
  void follow(int task);
  // Commits what the credit allows and says what starts now; call it after every instant's
  // ready() and finish() calls.
  Dispatch dispatch();

  Lane lane(int task) const { return lanes_[task]; }
  // Whether a collective or transfer this process started has not finished yet.
  bool communicating() const { return communicating_ > 0; }
  bool done() const { return finished_ == static_cast<int>(lanes_.size()); }
  int unfinished() const { return static_cast<int>(lanes_.size()) - finished_; }
  // Every commit so far, in order: collectives and pushes (pulls take no credit).
  const std::vector<int>& commit_log() const { return commit_log_; }

 private:
  using Key = std::tuple<double, double, int>;
  using ReadyQueue =
      std::priority_queue<std::pair<Key, int>, std::vector<std::pair<Key, int>>, std::greater<>>;

  Key key(int task) const;
  // The credit window of a message: 0 for the collectives, 1 for a push or pull.
  static constexpr int kWindows = 2;
  int window(int task) const;
  bool takes_credit(int task) const;
  void commit_ready_messages(Dispatch& out);

  const Schedule& s_;
  PolicyOptions o_;
  std::vector<Lane> lanes_;
  std::vector<int> pending_;
  // Task d's dependents are dependents_[first_dependent_[d] .. first_dependent_[d + 1]).
  std::vector<int> first_dependent_, dependents_;
  std::vector<double> ready_at_;
  std::vector<char> is_ready_;
  std::vector<char> is_finished_;
  int finished_ = 0;
  std::priority_queue<int, std::vector<int>, std::greater<>> compute_ready_;
  std::vector<ReadyQueue> message_ready_;  // per credit window
  std::vector<double> in_flight_;          // credit taken per window
  std::deque<int> committed_;                // collectives in channel order
  std::vector<int> ready_transfers_;         // transfers to start without credit
  std::vector<int> commit_log_;
  bool compute_busy_ = false;
  bool channel_busy_ = false;
  int communicating_ = 0;  // collectives and transfers dispatched and not finished
};

}  // namespace scalecast::scheduling
