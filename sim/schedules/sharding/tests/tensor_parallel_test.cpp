// Tensor parallelism inside a node: each GPU's share of a transformer's layers, the group's
// collectives in the time of the layers that close a block half, the replicas' cluster, memory,
// and what is refused.
#include <gtest/gtest.h>

#include "tests/fixtures.h"
#include "sim/backends/analytical/analytical_backend.h"
#include "sim/io/input_error.h"
#include "sim/memory/memory_fit.h"
#include "sim/prediction/prediction.h"
#include "sim/scenario/run_setup.h"
#include "sim/schedules/sharding/tensor_parallel.h"
#include "sim/scenario/workload_builder.h"

namespace scalecast {
namespace {

Scenario llama(const std::vector<std::string>& sets = {}) {
  std::vector<std::string> all = {"model.name=llama2-7b", "model.batch_per_gpu=1", "model.seq_len=4096",
                                  "model.precision=bf16", "model.optimizer=adam", "model.attention=fused",
                                  "model.activation_checkpointing=true", "gpu.type=h100", "cluster.gpus_per_node=8",
                                  "cluster.fabric=nvlink4", "gpus=[8,16]"};
  all.insert(all.end(), sets.begin(), sets.end());
  return parse_scenario(testing::kBaseScenario, "llama.yaml", all);
}

Strategy tp(int t, bool sp) {
  Strategy s = make_preset("fsdp");
  s.tensor_parallel = t;
  s.sequence_parallel = sp;
  return s;
}

TEST(TensorParallel, SplitsProductsAndKeepsTheHiddenStateLayersWhole) {
  const Scenario s = llama();
  const Workload w = build_workload(s).workload;
  const Cluster c = sized_for(s.cluster, 16);
  const TensorParallelRun run = tensor_parallel_run(w, c, tp(4, false), 2);
  int adds = 0;
  for (std::size_t i = 0; i < w.layers.size(); ++i) {
    const Layer& before = w.layers[i];
    const Layer& after = run.workload.layers[i];
    if (before.kind == "linear" || before.kind == "attention") {
      EXPECT_DOUBLE_EQ(after.forward_s, before.forward_s / 4) << before.name;
      EXPECT_EQ(after.parameters(), before.parameters() / 4) << before.name;
    } else if (before.kind == "rmsnorm") {
      EXPECT_DOUBLE_EQ(after.forward_s, before.forward_s) << before.name;
    } else if (before.kind == "add") {
      EXPECT_GT(after.forward_s, before.forward_s) << before.name;  // the group's all-reduce
      EXPECT_GT(after.backward_s, before.backward_s) << before.name;
      ++adds;
    }
  }
  EXPECT_EQ(adds, 2 * 32);  // two block halves per layer
  EXPECT_DOUBLE_EQ(run.workload.optimizer_s, w.optimizer_s / 4);
  // Sequence parallelism splits the norms too.
  const TensorParallelRun sp = tensor_parallel_run(w, c, tp(4, true), 2);
  for (std::size_t i = 0; i < w.layers.size(); ++i)
    if (w.layers[i].kind == "rmsnorm") {
      EXPECT_DOUBLE_EQ(sp.workload.layers[i].forward_s, w.layers[i].forward_s / 4);
    }
  // The replicas: 2 per node, with a quarter of the node's NICs each.
  EXPECT_EQ(run.cluster.gpus_per_node, 2);
  EXPECT_EQ(run.cluster.nodes, 2);
  EXPECT_EQ(run.cluster.nics_per_node, std::max(1, c.nics_used() / 4));
}

TEST(TensorParallel, ThroughputCountsEachReplicaOnce) {
  const Scenario s = llama({"strategy.tensor_parallel=8"});
  const Workload w = build_workload(s).workload;
  const PredictionRun run = predict(s, w, "fsdp", 16, AnalyticalBackend());
  EXPECT_EQ(run.row.gpus, 16);
  EXPECT_EQ(run.schedule.gpus(), 2);
  EXPECT_NEAR(run.row.throughput, 2 * w.samples_per_step() / run.row.iteration_s, 1e-9);
  // Splitting the layers costs their collectives: below 16 GPUs' worth of one GPU's compute.
  EXPECT_LT(run.row.efficiency, 1.0);
}

TEST(TensorParallel, MemoryDividesTheStateAndTheActivations) {
  const Scenario s = llama();
  const Workload w = build_workload(s).workload;
  const Cluster c = sized_for(s.cluster, 16);
  const MemoryFit one = memory_fit(s, w, state_sharding(make_preset("ddp"), c));
  Strategy ddp = make_preset("ddp");
  ddp.tensor_parallel = 8;
  const MemoryFit eight = memory_fit(s, w, state_sharding(ddp, c));
  EXPECT_DOUBLE_EQ(eight.weights_bytes, one.weights_bytes / 8);
  EXPECT_DOUBLE_EQ(eight.activations_bytes, one.activations_bytes * (10.0 + 24.0 / 8) / 34);
  ddp.sequence_parallel = true;
  EXPECT_DOUBLE_EQ(memory_fit(s, w, state_sharding(ddp, c)).activations_bytes, one.activations_bytes / 8);
  // FSDP over the replicas shards what tensor parallelism leaves: 16 / 8 = 2 replicas.
  EXPECT_EQ(state_sharding(tp(8, false), c).gpus, 2);
}

TEST(TensorParallel, RefusesWhatItCannotSplit) {
  const Scenario resnet = parse_scenario(testing::kBaseScenario, "r.yaml");
  EXPECT_THROW(tensor_parallel_run(build_workload(resnet).workload, sized_for(resnet.cluster, 4), tp(2, false), 4),
               InputError);
  const Scenario s = llama({"strategy.tensor_parallel=2"});
  EXPECT_THROW(strategy_for(s, "wfbp-ps"), InputError);
  EXPECT_THROW(llama({"strategy.tensor_parallel=3"}), InputError);
  EXPECT_THROW(llama({"strategy.tensor_parallel=16"}), InputError);
}

}  // namespace
}  // namespace scalecast
