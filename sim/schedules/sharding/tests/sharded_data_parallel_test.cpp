// Sharded data parallel: units by block, FSDP's and ZeRO's schedules (which collectives, among
// which GPUs, after what), their collectives' times and transfers, schedule files, and memory.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include "tests/fixtures.h"
#include "sim/backends/analytical/analytical_backend.h"
#include "sim/backends/analytical/comm_costs.h"
#include "sim/collectives/collective_ops.h"
#include "sim/collectives/expansion.h"
#include "sim/collectives/group_collectives.h"
#include "sim/io/input_error.h"
#include "sim/memory/memory_fit.h"
#include "sim/schedules/schedule_builder.h"
#include "sim/formats/schedule_json.h"
#include "sim/types/wrap_units.h"
#include "sim/backends/steady_state.h"
#include "sim/scenario/workload_builder.h"
#include "sim/zoo/zoo.h"

namespace scalecast {
namespace {

Workload gpt(const std::string& name = "gpt3-125m") {
  Workload w = zoo::build_model(name, {});
  for (Layer& l : w.layers) {
    l.forward_s = 1e-4;
    l.backward_s = 2e-4;
  }
  w.optimizer_s = 8e-3;
  return w;
}

struct Counts {
  std::map<std::string, int> ops;     // "all_gather/all", "reduce_scatter/node", ...
  std::map<std::string, double> bytes;
};

Counts count(const Schedule& s, int iteration) {
  Counts c;
  for (const Task& t : s.tasks) {
    if (t.kind != TaskKind::comm || t.iteration != iteration) continue;
    const std::string key = to_string(t.op) + "/" + to_string(t.group);
    ++c.ops[key];
    c.bytes[key] += t.bytes;
  }
  return c;
}

TEST(WrapUnits, BlocksByTheirNumberedNames) {
  EXPECT_EQ(block_of("transformer.h.3.attn.c_attn"), "transformer.h.3");
  EXPECT_EQ(block_of("layer1.0.conv1"), "layer1.0");
  EXPECT_EQ(block_of("bert.encoder.layer.11.output.dense"), "bert.encoder.layer.11");
  EXPECT_EQ(block_of("features.0"), "");
  EXPECT_EQ(block_of("lm_head"), "");
  const Workload w = gpt();
  const std::vector<WrapUnit> units = wrap_units(w);
  // Embeddings, 12 blocks, then the final norm, head and loss.
  ASSERT_EQ(units.size(), 14u);
  EXPECT_TRUE(units.front().root);
  EXPECT_TRUE(units.back().root);
  double parameters = 0;
  for (std::size_t u = 0; u < units.size(); ++u) {
    parameters += units[u].parameters;
    if (u > 0) {
      EXPECT_EQ(units[u].first_layer, units[u - 1].last_layer + 1);
    }
    if (u > 0 && u + 1 < units.size()) {
      EXPECT_FALSE(units[u].root);
    }
  }
  EXPECT_DOUBLE_EQ(parameters, static_cast<double>(w.parameters()));
}

TEST(ShardedSchedule, FullShardGathersEachBlockTwiceAndScattersItsGradients) {
  const Workload w = gpt();
  const Schedule s = build_schedule(w, testing::simple_cluster(2, 4), make_preset("fsdp"), 2);
  const Counts c = count(s, 1);
  EXPECT_EQ(c.ops.at("all_gather/all"), 14 + 12);  // every unit before its forward, blocks before their backward
  EXPECT_EQ(c.ops.at("reduce_scatter/all"), 14);
  EXPECT_EQ(c.ops.count("allreduce/all"), 0u);
  const double grads = static_cast<double>(w.grad_bytes());
  EXPECT_NEAR(c.bytes.at("reduce_scatter/all"), grads, 1);
  const std::vector<WrapUnit> units = wrap_units(w);
  EXPECT_NEAR(c.bytes.at("all_gather/all"), 2 * grads - units.front().grad_bytes - units.back().grad_bytes, 1);
}

// The backward seconds of an iteration's tasks.
double backward_s(const Schedule& s, int iteration) {
  double seconds = 0;
  for (const Task& t : s.tasks)
    if (t.kind == TaskKind::backward && t.iteration == iteration) seconds += t.duration_s;
  return seconds;
}

TEST(ShardedSchedule, FsdpPassesOverEachUnitsGradientAndGathersParametersAsTheModelHoldsThem) {
  const Cluster c = testing::simple_cluster(2, 4);
  Workload w = gpt();
  w.streaming_bandwidth = 1e12;
  const std::vector<WrapUnit> units = wrap_units(w);
  double parameters = 0;
  for (const WrapUnit& u : units) parameters += u.parameters;
  const double width = static_cast<double>(w.grad_bytes()) / parameters;
  const double plain = backward_s(build_schedule(gpt(), c, make_preset("fsdp"), 2), 1);
  // Assembled (read and written) and pre-divided (read and written) at the gradients' width.
  const Schedule fsdp = build_schedule(w, c, make_preset("fsdp"), 2);
  EXPECT_NEAR(backward_s(fsdp, 1) - plain, parameters * 4 * width / 1e12, 1e-12);
  EXPECT_NEAR(count(fsdp, 1).bytes.at("reduce_scatter/all"), static_cast<double>(w.grad_bytes()), 1);
  // ZeRO-3 does not: DeepSpeed's own passes are not modelled.
  EXPECT_NEAR(backward_s(build_schedule(w, c, make_preset("zero3"), 2), 1), plain, 1e-12);
  // fp32 parameters over half-width gradients (autocast): gathered at 4 bytes, the gradient
  // assembled at 4, cast to 2 (4 read, 2 written), pre-divided at 2: 18 bytes a parameter.
  Workload half = w;
  for (Layer& l : half.layers)
    for (GradTensor& g : l.grads) g.bytes /= 2;
  const double gathered = count(build_schedule(half, c, make_preset("fsdp"), 2), 1).bytes.at("all_gather/all");
  half.parameter_bytes = 4;
  const Schedule autocast = build_schedule(half, c, make_preset("fsdp"), 2);
  EXPECT_NEAR(count(autocast, 1).bytes.at("all_gather/all"), 2 * gathered, 1);
  EXPECT_NEAR(backward_s(autocast, 1) - plain, parameters * 18 / 1e12, 1e-12);
}

// FSDP's reduce_dtype float32 over bf16 parameters (model.reduce_precision: fp32, torchtitan's):
// gathered at 2 bytes, gradients reduce-scattered at 4, each unit's gradient assembled at 2, cast
// to 4 (2 read, 4 written) and pre-divided at 4: 18 bytes a parameter.
TEST(ShardedSchedule, Fp32ReduceScattersWhatHalfWidthParametersGather) {
  const Cluster c = testing::simple_cluster(2, 4);
  Workload w = gpt();  // fp32 gradient tensors: the reduce width
  w.streaming_bandwidth = 1e12;
  double parameters = 0;
  for (const WrapUnit& u : wrap_units(w)) parameters += u.parameters;
  const double plain = backward_s(build_schedule(gpt(), c, make_preset("fsdp"), 2), 1);
  w.parameter_bytes = 2;
  const Schedule s = build_schedule(w, c, make_preset("fsdp"), 2);
  const Counts n = count(s, 1);
  EXPECT_NEAR(n.bytes.at("reduce_scatter/all"), static_cast<double>(w.grad_bytes()), 1);
  EXPECT_NEAR(n.bytes.at("reduce_scatter/all"), 4 * parameters, 1);
  EXPECT_NEAR(backward_s(s, 1) - plain, parameters * 18 / 1e12, 1e-12);
  const Schedule fp32 = build_schedule(gpt(), c, make_preset("fsdp"), 2);
  EXPECT_NEAR(n.bytes.at("all_gather/all"), count(fp32, 1).bytes.at("all_gather/all") / 2, 1);
}

TEST(ShardedSchedule, ShardGradOpKeepsWhatItsForwardGathered) {
  const Schedule s = build_schedule(gpt(), testing::simple_cluster(2, 4), make_preset("fsdp-grad-op"), 2);
  const Counts c = count(s, 1);
  EXPECT_EQ(c.ops.at("all_gather/all"), 14);
  EXPECT_EQ(c.ops.at("reduce_scatter/all"), 14);
}

TEST(ShardedSchedule, AnAllGatherWaitsForTheUnitTwoBeforeItToRun) {
  const Workload w = gpt();
  const Schedule s = build_schedule(w, testing::simple_cluster(1, 8), make_preset("fsdp"), 1);
  const std::vector<WrapUnit> units = wrap_units(w);
  std::vector<const Task*> gathers;
  for (const Task& t : s.tasks)
    if (t.kind == TaskKind::comm && t.op == CommOp::all_gather && s.name_of(t).starts_with("all_gather fwd"))
      gathers.push_back(&t);
  ASSERT_EQ(gathers.size(), units.size());
  EXPECT_TRUE(gathers[0]->deps.empty());
  EXPECT_TRUE(gathers[1]->deps.empty());
  for (std::size_t u = 2; u < units.size(); ++u) {
    ASSERT_EQ(gathers[u]->deps.size(), 1u);
    const Task& dep = s.tasks[static_cast<std::size_t>(gathers[u]->deps[0])];
    EXPECT_EQ(dep.kind, TaskKind::forward);
    EXPECT_EQ(dep.layer, units[u - 2].last_layer) << "unit " << u;
  }
  // A block's forward waits for its all-gather.
  for (const Task& t : s.tasks)
    if (t.kind == TaskKind::forward && t.layer == units[5].first_layer) {
      EXPECT_NE(std::find(t.deps.begin(), t.deps.end(), gathers[5]->id), t.deps.end());
    }
}

TEST(ShardedSchedule, HybridShardScattersInTheNodeAndAllReducesTheShardOnRails) {
  const Workload w = gpt();
  const Schedule s = build_schedule(w, testing::simple_cluster(4, 8), make_preset("fsdp-hybrid"), 2);
  const Counts c = count(s, 1);
  EXPECT_EQ(c.ops.at("all_gather/node"), 26);
  EXPECT_EQ(c.ops.at("reduce_scatter/node"), 14);
  EXPECT_EQ(c.ops.at("allreduce/rail"), 14);
  EXPECT_NEAR(c.bytes.at("allreduce/rail"), static_cast<double>(w.grad_bytes()) / 8, 1);
  // One node: the shard spans every GPU and nothing crosses nodes.
  const Counts one = count(build_schedule(w, testing::simple_cluster(1, 8), make_preset("fsdp-hybrid"), 2), 1);
  EXPECT_EQ(one.ops.at("reduce_scatter/all"), 14);
  EXPECT_EQ(one.ops.count("allreduce/rail"), 0u);
}

TEST(ShardedSchedule, ZeroOneAllReducesOnceAndGathersTheUpdatedParameters) {
  Workload w = gpt();
  w.accumulation_steps = 3;
  const Schedule s1 = build_schedule(w, testing::simple_cluster(2, 4), make_preset("zero1"), 2);
  const Counts one = count(s1, 1);
  const int buckets = one.ops.at("allreduce/all");
  EXPECT_GE(buckets, 1);
  EXPECT_EQ(one.ops.at("all_gather/all"), buckets);  // after the step, bucket by bucket
  EXPECT_NEAR(one.bytes.at("allreduce/all"), static_cast<double>(w.grad_bytes()), 1);
  // ZeRO-2 reduce-scatters every micro-batch's gradients into the shard.
  const Counts two = count(build_schedule(w, testing::simple_cluster(2, 4), make_preset("zero2"), 2), 1);
  EXPECT_EQ(two.ops.at("reduce_scatter/all"), 3 * buckets);
  EXPECT_EQ(two.ops.at("all_gather/all"), buckets);
  // The next forward waits for the gathers.
  for (const Task& t : s1.tasks)
    if (t.kind == TaskKind::comm && t.op == CommOp::all_gather && t.iteration == 0) {
      const Task& opt = s1.tasks[static_cast<std::size_t>(t.deps.at(0))];
      EXPECT_EQ(opt.kind, TaskKind::optimizer);
    }
}

TEST(ShardedSchedule, TheStepRunsOnTheShard) {
  const Workload w = gpt();
  const Schedule s = build_schedule(w, testing::simple_cluster(2, 4), make_preset("zero3"), 1);
  const auto opt = std::find_if(s.tasks.begin(), s.tasks.end(), [](const Task& t) { return t.kind == TaskKind::optimizer; });
  ASSERT_NE(opt, s.tasks.end());
  EXPECT_DOUBLE_EQ(opt->duration_s, w.optimizer_s / 8);
  // One GPU: nothing to gather or scatter.
  const Schedule alone = build_schedule(w, testing::simple_cluster(1, 1), make_preset("fsdp"), 1);
  EXPECT_TRUE(std::none_of(alone.tasks.begin(), alone.tasks.end(), [](const Task& t) { return t.kind == TaskKind::comm; }));
}

TEST(ShardedSchedule, CommunicationOverlapsTheCompute) {
  // A block's compute far longer than its collectives: the run costs little more than compute.
  Workload w = gpt();
  for (Layer& l : w.layers) {
    l.forward_s = 2e-3;
    l.backward_s = 4e-3;
  }
  const Cluster c = testing::simple_cluster(2, 4, 100, Transport::rdma);
  const Schedule s = build_schedule(w, c, make_preset("fsdp"), ScheduleShape{3, true});
  const IterationStats st = simulated_steady_state(s, AnalyticalBackend().run(s));
  double compute = w.forward_s() + w.backward_s() + w.optimizer_s / 8;
  EXPECT_GT(st.iteration_s, compute);
  EXPECT_LT(st.iteration_s, compute * 1.1);
}

TEST(GroupCollectives, TimesFollowTheModelOfTheirGroup) {
  const Cluster c = testing::simple_cluster(4, 8, 100, Transport::rdma);
  const LinkCapacities l = link_capacities(c, make_preset("fsdp"));
  const double bytes = 256e6;
  EXPECT_DOUBLE_EQ(collectives::group_collective_s(l, CommOp::all_gather, CommGroup::all, bytes, "auto"),
                   collectives::collective_op_s(l, collectives::CollectiveOp::all_gather, bytes, "auto"));
  const double node = collectives::group_collective_s(l, CommOp::reduce_scatter, CommGroup::node, bytes, "auto");
  const double all = collectives::group_collective_s(l, CommOp::reduce_scatter, CommGroup::all, bytes, "auto");
  EXPECT_GT(node, 0);
  EXPECT_LT(node, all);  // inside the node, over the fabric only
  const double rail = collectives::group_collective_s(l, CommOp::allreduce, CommGroup::rail, bytes / 8, "auto");
  EXPECT_GT(rail, 0);
  EXPECT_THROW(collectives::group_collective_s(l, CommOp::all_gather, CommGroup::rail, bytes, "auto"), std::logic_error);
  EXPECT_THROW(collectives::group_collective_s(l, CommOp::push, CommGroup::all, bytes, "auto"), std::logic_error);
}

TEST(GroupCollectives, RingsMoveWhatTheyShould) {
  for (auto [op, group] : {std::pair{CommOp::all_gather, CommGroup::all}, std::pair{CommOp::reduce_scatter, CommGroup::node},
                           std::pair{CommOp::allreduce, CommGroup::rail}}) {
    const collectives::Expansion e = collectives::expand_group_collective(3, 4, op, group, 1200);
    EXPECT_EQ(static_cast<double>(e.transfer_count()), collectives::group_transfer_count(3, 4, op, group));
    for (const auto& step : e.steps)
      for (const auto& t : step) EXPECT_NE(t.src, t.dst);
    // Each GPU sends (p - 1)/p of the array in a ring of p; twice that for an all-reduce.
    const double per_gpu = group == CommGroup::all ? 1200.0 * 11 / 12 : group == CommGroup::node ? 1200.0 * 3 / 4 : 2 * 1200.0 * 2 / 3;
    EXPECT_NEAR(e.total_bytes(), 12 * per_gpu, 1e-6) << to_string(op) << "/" << to_string(group);
  }
  // Rail transfers stay on their local index.
  for (const auto& step : collectives::expand_group_collective(3, 4, CommOp::allreduce, CommGroup::rail, 1200).steps)
    for (const auto& t : step) EXPECT_EQ(t.src % 4, t.dst % 4);
}

TEST(ShardedSchedule, FilesReadBackAlike) {
  const Schedule s = build_schedule(gpt(), testing::simple_cluster(2, 4), make_preset("fsdp-hybrid"), 1);
  const Schedule back = schedule_from_json(nlohmann::json::parse(schedule_to_json(s).dump()), "fsdp.json");
  ASSERT_EQ(back.tasks.size(), s.tasks.size());
  EXPECT_EQ(back.strategy.sharding, Sharding::parameters);
  EXPECT_TRUE(back.strategy.shard_in_node);
  for (std::size_t i = 0; i < s.tasks.size(); ++i) {
    EXPECT_EQ(back.tasks[i].op, s.tasks[i].op);
    EXPECT_EQ(back.tasks[i].group, s.tasks[i].group);
  }
  EXPECT_EQ(schedule_to_json(back).dump(), schedule_to_json(s).dump());
}

Scenario llama(const std::vector<std::string>& sets = {}) {
  std::vector<std::string> all = {"model.name=llama2-7b", "model.batch_per_gpu=1", "model.seq_len=4096",
                                  "model.precision=bf16", "model.optimizer=adam", "model.attention=fused",
                                  "model.activation_checkpointing=true", "gpu.type=h100"};
  all.insert(all.end(), sets.begin(), sets.end());
  return parse_scenario(testing::kBaseScenario, "llama.yaml", all);
}

TEST(ShardedMemory, StateDividesAsZeroSays) {
  const Scenario s = llama();
  const Workload w = build_workload(s).workload;
  const Cluster c = testing::simple_cluster(8, 8);
  const MemoryFit whole = memory_fit(s, w);
  const MemoryFit z1 = memory_fit(s, w, state_sharding(make_preset("zero1"), c));
  const MemoryFit z2 = memory_fit(s, w, state_sharding(make_preset("zero2"), c));
  const MemoryFit z3 = memory_fit(s, w, state_sharding(make_preset("fsdp"), c));
  EXPECT_DOUBLE_EQ(z1.optimizer_bytes, whole.optimizer_bytes / 64);
  EXPECT_DOUBLE_EQ(z1.gradients_bytes, whole.gradients_bytes);
  EXPECT_DOUBLE_EQ(z2.gradients_bytes, whole.gradients_bytes / 64);
  EXPECT_DOUBLE_EQ(z2.weights_bytes, whole.weights_bytes);
  EXPECT_DOUBLE_EQ(z3.weights_bytes, whole.weights_bytes / 64);
  EXPECT_GT(z3.gathered_bytes, 0);
  EXPECT_LT(z3.needed_bytes(), z2.needed_bytes());
  EXPECT_LT(z2.needed_bytes(), z1.needed_bytes());
  EXPECT_LT(z1.needed_bytes(), whole.needed_bytes());
  // A hybrid shard divides by the node's GPUs only.
  const MemoryFit hybrid = memory_fit(s, w, state_sharding(make_preset("fsdp-hybrid"), c));
  EXPECT_DOUBLE_EQ(hybrid.weights_bytes, whole.weights_bytes / 8);
  // SHARD_GRAD_OP holds every block from its forward to its backward.
  const MemoryFit grad_op = memory_fit(s, w, state_sharding(make_preset("fsdp-grad-op"), c));
  EXPECT_GT(grad_op.gathered_bytes, 0.9 * whole.weights_bytes);
}

TEST(ShardedMemory, OutOfMemoryNamesTheShardingThatFits) {
  const Scenario s = llama();
  const Workload w = build_workload(s).workload;
  const StateSharding ddp = state_sharding(make_preset("ddp"), testing::simple_cluster(1, 8));
  EXPECT_FALSE(memory_fit(s, w, ddp).fits());
  const std::string knobs = memory_knobs(s, w, ddp);
  EXPECT_NE(knobs.find("methods: [fsdp] on 8 GPUs"), std::string::npos) << knobs;
}

}  // namespace
}  // namespace scalecast
