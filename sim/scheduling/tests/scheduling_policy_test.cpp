// The scheduling policy on hand-built schedules: ByteScheduler's head-of-line credit (the
// 4-4-4-1-4-1 MB case), the channel's pick without credit, one push credit per worker returned
// when a push ends, a follower channel, and the refusals that keep a driver from breaking it.
#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

#include "sim/scheduling/scheduling_policy.h"

namespace scalecast::scheduling {
namespace {

Task message(int id, CommOp op, double bytes, int priority, int server = -1) {
  Task t;
  t.id = id;
  t.kind = TaskKind::comm;
  t.op = op;
  t.bytes = bytes;
  t.priority = priority;
  t.server = server;
  return t;
}

Schedule collectives(const std::vector<double>& megabytes, double credit_mb, bool priority) {
  Schedule s;
  s.strategy.credit_bytes = credit_mb * 1e6;
  s.strategy.priority = priority;
  for (size_t i = 0; i < megabytes.size(); ++i)
    s.tasks.push_back(message(static_cast<int>(i), CommOp::allreduce, megabytes[i] * 1e6, static_cast<int>(i)));
  return s;
}

TEST(SchedulingPolicy, CreditIsHeadOfLineAndMayBeOverdrawnByOneMessage) {
  // ByteScheduler's core takes the head of its priority queue while credit is left and then
  // subtracts its size: with 16 MB, m0..m3 leave 3 MB, m4 (4 MB) still goes and overdraws it,
  // m5 waits although it would fit beside m0..m3. Nothing ever overtakes a waiting head.
  const Schedule s = collectives({4, 4, 4, 1, 4, 1}, 16, true);
  SchedulingPolicy p(s);
  for (int id : p.initial()) p.ready(id, 0);
  Dispatch d = p.dispatch();
  EXPECT_EQ(d.committed, (std::vector<int>{0, 1, 2, 3, 4}));
  EXPECT_EQ(d.channel, 0);
  EXPECT_TRUE(p.finish(0).empty());
  d = p.dispatch();  // 4 MB back: 13 MB of 16 taken, so m5 goes
  EXPECT_EQ(d.committed, (std::vector<int>{5}));
  EXPECT_EQ(d.channel, 1);
  EXPECT_EQ(p.commit_log(), (std::vector<int>{0, 1, 2, 3, 4, 5}));
  for (int id : {1, 2, 3, 4}) {
    p.finish(id);
    EXPECT_EQ(p.dispatch().channel, id + 1);
  }
  p.finish(5);
  EXPECT_TRUE(p.done());
}

TEST(SchedulingPolicy, WithoutCreditTheChannelPicksTheMostUrgentWhenItFrees) {
  Schedule s = collectives({1, 1, 1}, 0, true);
  SchedulingPolicy p(s);
  p.ready(2, 0);
  Dispatch d = p.dispatch();
  EXPECT_EQ(d.channel, 2);
  p.ready(1, 0.1);
  p.ready(0, 0.2);  // more urgent, though ready later
  EXPECT_EQ(p.dispatch().channel, -1);  // the channel is busy: nothing is committed yet
  p.finish(2);
  d = p.dispatch();
  EXPECT_EQ(d.committed, (std::vector<int>{0}));
  EXPECT_EQ(d.channel, 0);
}

TEST(SchedulingPolicy, WithoutPriorityReadinessOrders) {
  Schedule s = collectives({1, 1, 1}, 0, false);
  SchedulingPolicy p(s);
  p.ready(2, 0.0);
  p.ready(0, 0.5);
  p.ready(1, 0.2);
  EXPECT_EQ(p.dispatch().channel, 2);
  p.finish(2);
  EXPECT_EQ(p.dispatch().channel, 1);
  p.finish(1);
  EXPECT_EQ(p.dispatch().channel, 0);
}

TEST(SchedulingPolicy, PushCreditIsOnePerWorkerAndComesBackWhenThePushEnds) {
  Schedule s;
  s.strategy.credit_bytes = 8e6;
  s.strategy.priority = true;
  // Pushes of 6 MB to servers 0, 0 and 1 (tasks 0, 2, 4), each followed by its pull.
  for (int i = 0; i < 3; ++i) {
    const int server = i == 2 ? 1 : 0;
    s.tasks.push_back(message(2 * i, CommOp::push, 6e6, i, server));
    Task pull = message(2 * i + 1, CommOp::pull, 6e6, i, server);
    pull.deps = {2 * i};
    s.tasks.push_back(pull);
  }
  SchedulingPolicy p(s);
  for (int id : p.initial()) p.ready(id, 0);
  // 6 of 8 MB left after push 0: push 2 overdraws it; push 4, to another server, waits all the same.
  EXPECT_EQ(p.dispatch().transfers, (std::vector<int>{0, 2}));
  const auto released = p.finish(0);
  ASSERT_EQ(released.size(), 1u);
  p.ready(released[0].task, 0.1);
  // Push 0's end gave its 6 MB back (6 of 12 taken): push 4 goes, and a pull needs no credit.
  EXPECT_EQ(p.dispatch().transfers, (std::vector<int>{4, 1}));  // credited pushes commit first
}

TEST(SchedulingPolicy, HeadOfLineHoldsPushesToEveryServer) {
  Schedule s;
  s.strategy.credit_bytes = 4e6;
  s.strategy.priority = true;
  s.tasks.push_back(message(0, CommOp::push, 4e6, 0, 0));
  s.tasks.push_back(message(1, CommOp::push, 1e6, 1, 0));
  s.tasks.push_back(message(2, CommOp::push, 1e6, 2, 1));
  SchedulingPolicy p(s);
  for (int id : p.initial()) p.ready(id, 0);
  EXPECT_EQ(p.dispatch().transfers, (std::vector<int>{0}));
  p.finish(0);
  EXPECT_EQ(p.dispatch().transfers, (std::vector<int>{1, 2}));
}

TEST(SchedulingPolicy, AFollowerRunsTheCoordinatorsOrderOnceEachIsReadyHere) {
  Schedule s = collectives({1, 1}, 0, true);
  PolicyOptions o;
  o.decides_channel = false;
  SchedulingPolicy p(s, o);
  p.follow(1);
  p.follow(0);
  p.ready(0, 0);
  EXPECT_EQ(p.dispatch().channel, -1);  // 1 comes first and is not ready here yet
  p.ready(1, 0.1);
  const Dispatch d = p.dispatch();
  EXPECT_EQ(d.channel, 1);
  EXPECT_TRUE(d.committed.empty());
  p.finish(1);
  EXPECT_EQ(p.dispatch().channel, 0);
}

TEST(SchedulingPolicy, ComputeRunsInTaskOrderOneAtATime) {
  Schedule s;
  for (int i = 0; i < 3; ++i) {
    Task t;
    t.id = i;
    t.kind = TaskKind::forward;
    s.tasks.push_back(t);
  }
  SchedulingPolicy p(s);
  p.ready(2, 0);
  p.ready(0, 0);
  p.ready(1, 0);
  EXPECT_EQ(p.dispatch().compute, 0);
  EXPECT_EQ(p.dispatch().compute, -1);
  p.finish(0);
  EXPECT_EQ(p.dispatch().compute, 1);
}

TEST(SchedulingPolicy, RefusesWhatADriverMustNeverDo) {
  Schedule s = collectives({1, 1}, 0, false);
  s.tasks[1].deps = {0};
  SchedulingPolicy p(s);
  EXPECT_THROW(p.ready(1, 0), std::logic_error);   // a dependency has not ended
  EXPECT_THROW(p.finish(0), std::logic_error);     // never made ready
  EXPECT_THROW(p.follow(0), std::logic_error);     // this policy decides its channel
  Schedule bad = s;
  bad.tasks[1].deps = {7};
  EXPECT_THROW(SchedulingPolicy{bad}, std::logic_error);
  bad.tasks[1].deps = {1};
  EXPECT_THROW(SchedulingPolicy{bad}, std::logic_error);
}

}  // namespace
}  // namespace scalecast::scheduling
