// Per-rank plans: world size with dedicated servers, roles, and that every send one rank plans
// is a receive its peer plans with the same tag and size (so no transfer can wait forever).
#include <gtest/gtest.h>

#include <cmath>
#include <set>
#include <tuple>

#include "executor/rank_plan.h"
#include "sim/collectives/allreduce_algorithm.h"
#include "sim/io/input_error.h"

namespace scalecast::executor {
namespace {

Task task(int id, TaskKind kind, std::vector<int> deps) {
  Task t;
  t.id = id;
  t.kind = kind;
  t.deps.assign(deps.begin(), deps.end());
  t.duration_s = 1e-3;
  return t;
}

Task comm(int id, CommOp op, double bytes, int server, std::vector<int> deps) {
  Task t = task(id, TaskKind::comm, std::move(deps));
  t.op = op;
  t.bytes = bytes;
  t.server = server;
  return t;
}

Schedule parameter_server_schedule(const std::string& placement) {
  Schedule s;
  s.cluster.nodes = 2;
  s.cluster.gpus_per_node = 2;
  s.cluster.ps.placement = parse_placement(placement);
  s.cluster.ps.servers = 2;
  s.strategy.aggregation = Aggregation::parameter_server;
  s.strategy.node_local_reduce = true;
  s.tasks = {task(0, TaskKind::forward, {}), task(1, TaskKind::backward, {0}),
             comm(2, CommOp::push, 1000, 0, {1}), comm(3, CommOp::pull, 1000, 0, {2}),
             comm(4, CommOp::push, 3000, 1, {1}), comm(5, CommOp::pull, 3000, 1, {4})};
  return s;
}

Schedule ring_schedule(int gpus) {
  Schedule s;
  s.cluster.nodes = gpus;
  s.cluster.gpus_per_node = 1;
  s.tasks = {task(0, TaskKind::backward, {}), comm(1, CommOp::allreduce, 4096, -1, {0}),
             comm(2, CommOp::allreduce, 100, -1, {0})};
  for (int id : {1, 2}) s.tasks[id].algorithm = &collectives::allreduce_algorithm("ring");
  return s;
}

// Every planned send matches exactly one planned receive at the peer, and nothing else.
void expect_matched(const Schedule& s) {
  using Key = std::tuple<int, int, std::uint64_t, std::size_t>;  // src, dst, tag, bytes
  std::multiset<Key> sends, recvs;
  for (int r = 0; r < world_size(s); ++r)
    for (const RankTask& t : plan_rank(s, r).tasks)
      for (const auto& step : t.steps)
        for (const PeerOp& op : step) (op.send ? sends : recvs).insert(op.send ? Key{r, op.peer, op.tag, op.bytes}
                                                                               : Key{op.peer, r, op.tag, op.bytes});
  EXPECT_EQ(sends, recvs);
  EXPECT_FALSE(sends.empty());
  std::set<std::tuple<int, int, std::uint64_t>> unique;
  for (const auto& [src, dst, tag, bytes] : sends) EXPECT_TRUE(unique.insert({src, dst, tag}).second);
}

TEST(RankPlan, DedicatedServersAreExtraRanks) {
  const Schedule s = parameter_server_schedule("dedicated");
  EXPECT_EQ(server_processes(s), 2);
  EXPECT_EQ(world_size(s), 6);
  const RankPlan server = plan_rank(s, 4);
  EXPECT_EQ(server.tasks[0].role, Role::skip);
  EXPECT_EQ(server.tasks[2].role, Role::ps);
  EXPECT_EQ(server.tasks[4].role, Role::skip) << "partition 1 belongs to the other server";
  // BytePS: the node's second GPU reduces with the first inside the node, then pushes its half
  // (the shard it copied to the host) to the partition's server.
  const RankPlan second_gpu = plan_rank(s, 1);
  ASSERT_EQ(second_gpu.tasks[2].steps.size(), 2u);
  EXPECT_EQ(second_gpu.tasks[2].steps[0][0].peer, 0);
  EXPECT_EQ(second_gpu.tasks[2].steps[1][0].peer, 4);
  expect_matched(s);
  EXPECT_THROW(plan_rank(s, 6), InputError);
}

TEST(RankPlan, ColocatedServersNeedNoExtraRanks) {
  const Schedule s = parameter_server_schedule("colocated");
  EXPECT_EQ(world_size(s), 4);
  expect_matched(s);
}

TEST(RankPlan, RingAllreduceGoesThroughTheChannel) {
  for (int gpus : {2, 3, 4, 7}) {
    const Schedule s = ring_schedule(gpus);
    const RankPlan p = plan_rank(s, gpus - 1);
    EXPECT_EQ(p.channel_tasks, 2);
    EXPECT_EQ(p.tasks[0].role, Role::compute);
    EXPECT_EQ(p.tasks[1].role, Role::channel);
    ASSERT_EQ(p.tasks[1].steps.size(), static_cast<std::size_t>(2 * (gpus - 1)));
    for (const auto& step : p.tasks[1].steps) {
      ASSERT_EQ(step.size(), 2u);
      EXPECT_EQ(step[0].bytes, static_cast<std::size_t>(std::llround(4096.0 / gpus)));
    }
    expect_matched(s);
  }
}

TEST(RankPlan, ShardedCollectivesStayInTheirGroups) {
  // A hybrid shard on 3 nodes x 4 GPUs: a reduce-scatter inside each node, then an all-reduce of
  // the shard on each rail (the GPUs of one local index).
  Schedule s;
  s.cluster.nodes = 3;
  s.cluster.gpus_per_node = 4;
  s.strategy.sharding = Sharding::parameters;
  s.strategy.shard_in_node = true;
  s.tasks = {task(0, TaskKind::backward, {}), comm(1, CommOp::reduce_scatter, 4800, -1, {0}),
             comm(2, CommOp::allreduce, 1200, -1, {1}), comm(3, CommOp::all_gather, 4800, -1, {2})};
  s.tasks[1].group = s.tasks[3].group = CommGroup::node;
  s.tasks[2].group = CommGroup::rail;
  s.tasks[2].algorithm = &collectives::allreduce_algorithm("ring");
  for (int r = 0; r < world_size(s); ++r) {
    const RankPlan p = plan_rank(s, r);
    EXPECT_EQ(p.channel_tasks, 3);
    for (int id : {1, 3})
      for (const auto& step : p.tasks[id].steps)
        for (const PeerOp& op : step) EXPECT_EQ(op.peer / 4, r / 4) << "task " << id << " of rank " << r;
    for (const auto& step : p.tasks[2].steps)
      for (const PeerOp& op : step) EXPECT_EQ(op.peer % 4, r % 4) << "rank " << r;
  }
  expect_matched(s);
}

TEST(RankPlan, TagsOfDifferentTasksAndStepsDiffer) {
  EXPECT_NE(transfer_tag(1, 0, 0), transfer_tag(2, 0, 0));
  EXPECT_NE(transfer_tag(1, 0, 0), transfer_tag(1, 1, 0));
  EXPECT_NE(transfer_tag(1, 0, 0), transfer_tag(1, 0, 1));
  EXPECT_EQ(transfer_tag(1, 0, 0) >> 56, 0x5Cu);
}

}  // namespace
}  // namespace scalecast::executor
