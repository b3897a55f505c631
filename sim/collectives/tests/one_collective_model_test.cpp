// One collective model from nccl-tests to training: on every shipped cluster scenario, a
// training schedule's all-reduce takes exactly the time `scalecast collective` predicts for it,
// and the scenario's NCCL settings move training predictions as they move `collective`.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "tests/fixtures.h"
#include "sim/backends/analytical/analytical_backend.h"
#include "sim/collectives/nccl_model.h"
#include "sim/prediction/prediction.h"
#include "sim/scenario/run_setup.h"
#include "sim/scenario/scenario.h"
#include "sim/schedules/schedule_builder.h"

namespace scalecast {
namespace {

namespace fs = std::filesystem;

// Seconds the analytical backend gives the first all-reduce of a BSP schedule of `bytes`.
double training_allreduce_s(const Scenario& s, const Cluster& sized, double bytes) {
  const Schedule schedule = build_schedule(testing::uniform_workload(1, bytes), sized, strategy_for(s, "bsp-allreduce"), 1);
  const Timeline t = AnalyticalBackend().run(schedule);
  for (const auto& e : t.events)
    if (schedule.tasks[e.task].kind == TaskKind::comm) return e.end_s - e.start_s;
  ADD_FAILURE() << "no all-reduce in the schedule";
  return 0;
}

TEST(OneCollectiveModel, TrainingAllreduceIsCollectivesOnEveryShippedCluster) {
  int clusters = 0;
  for (const auto& entry : fs::directory_iterator(std::string(SCALECAST_SOURCE_DIR) + "/scenarios")) {
    const std::string name = entry.path().filename().string();
    if (!name.starts_with("cluster-")) continue;
    const Scenario s = load_scenario(entry.path().string());
    for (int gpus : s.gpus) {
      const Cluster sized = sized_for(s.cluster, gpus);
      if (sized.gpus() < 2) continue;
      const collectives::nccl::NcclModel model = collectives::nccl::nccl_model(sized, s.strategy.nccl);
      for (double bytes : {4096.0, 1048576.0, 25e6, 64 * 1048576.0, 1073741824.0}) {
        const double collective = model.time(collectives::CollectiveOp::all_reduce, bytes).seconds;
        EXPECT_NEAR(training_allreduce_s(s, sized, bytes) / collective, 1, 1e-12)
            << name << ", " << gpus << " GPUs, " << bytes << " B (collective " << collective << " s)";
      }
    }
    ++clusters;
  }
  EXPECT_GE(clusters, 15);
}

// A 2 x 8 H100 cluster on eight 400 Gb/s rails: NCCL_ALGO reaches training as it reaches
// `collective`, and the default is NCCL's own choice there.
TEST(OneCollectiveModel, NcclAlgoMovesTrainingPredictions) {
  const std::string path = std::string(SCALECAST_SOURCE_DIR) + "/scenarios/cluster-h100-ndr.yaml";
  const double bytes = 1073741824;
  double seen[3] = {};
  int i = 0;
  for (const char* algo : {"", "ring", "tree"}) {
    std::vector<std::string> sets;
    if (*algo) sets.push_back(std::string("strategy.nccl_algo=") + algo);
    const Scenario s = load_scenario(path, sets);
    const Cluster sized = sized_for(s.cluster, 16);
    const auto t = collectives::nccl::nccl_model(sized, s.strategy.nccl).time(collectives::CollectiveOp::all_reduce, bytes);
    if (*algo) {
      EXPECT_TRUE(t.algorithm.starts_with(algo)) << t.algorithm;
    }
    seen[i] = training_allreduce_s(s, sized, bytes);
    EXPECT_DOUBLE_EQ(seen[i++], t.seconds) << algo;
  }
  EXPECT_NE(seen[0], seen[1]);
  EXPECT_NE(seen[1], seen[2]);
}

// BERT-Large under DDP on 1024 H100s (128 nodes, eight 400 Gb/s rails): what NCCL runs (its tree
// and NVLS-tree across nodes) against a flat ring of 1024 ranks, whose 2(p-1) steps of latency
// dominate the buckets. NCCL_ALGO=ring reproduces the ring's answer.
TEST(OneCollectiveModel, BertLargeAt1024H100sScalesAsNcclRunsIt) {
  const std::string path = std::string(SCALECAST_SOURCE_DIR) + "/scenarios/whatif-bert-large-1024-h100.yaml";
  const auto efficiency = [&](const std::vector<std::string>& sets) {
    const Scenario s = load_scenario(path, sets);
    return predict(s, build_workload(s).workload, "ddp", 1024, AnalyticalBackend()).row.efficiency;
  };
  const double nccl = efficiency({}), ring = efficiency({"strategy.nccl_algo=ring"});
  const double closed_ring = efficiency({"strategy.allreduce=ring"});
  EXPECT_GT(nccl, 0.9);
  EXPECT_LT(ring, 0.5);
  EXPECT_NEAR(ring / closed_ring, 1, 0.2);  // NCCL's ring and the textbook ring, alike
}

}  // namespace
}  // namespace scalecast
