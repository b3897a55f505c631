// Every strategy preset runs on every model of the zoo, on one node and across nodes, and gives
// a steady state no faster than the computation alone.
#include <gtest/gtest.h>

#include "tests/fixtures.h"
#include "sim/backends/analytical/analytical_backend.h"
#include "sim/compute/compute_model.h"
#include "sim/io/input_error.h"
#include "sim/scenario/run_setup.h"
#include "sim/scenario/scenario.h"
#include "sim/schedules/schedule_builder.h"
#include "sim/backends/steady_state.h"
#include "sim/zoo/zoo.h"

namespace scalecast {
namespace {

TEST(Presets, EveryPresetRunsOnEveryModel) {
  for (const auto& model : zoo::list_models()) {
    zoo::ModelOptions options;
    options.shape.layers = 2;  // for the models built by shape
    options.shape.hidden = 256;
    options.shape.heads = 4;
    options.shape.kv_heads = 2;
    options.shape.intermediate = 512;
    Workload w = zoo::build_model(model.name, options);
    // The billion-parameter LLMs take a minute here for nothing new: the by-shape ones stand for them.
    if (w.parameters() >= 1'000'000'000) continue;
    w.batch_per_gpu = 8;
    apply_compute_model(w, find_gpu("v100-sxm2"), ComputeModelParams{});
    for (const auto& preset : list_presets()) {
      const Strategy s = make_preset(preset.name);
      const int nodes = s.aggregation == Aggregation::root_reduce ? 1 : 2;
      const Cluster c = testing::simple_cluster(nodes, 4);
      const Schedule sched = build_schedule(w, c, s, 3);
      const IterationStats st = steady_state(sched, AnalyticalBackend().run(sched));
      EXPECT_GE(st.iteration_s, w.compute_s() * (1 - 1e-9)) << model.name << " " << preset.name;
      EXPECT_LT(st.iteration_s, 100.0) << model.name << " " << preset.name;
    }
  }
}

TEST(Presets, NamesAndErrors) {
  for (const char* name : {"bsp-allreduce", "wfbp-allreduce", "mgwfbp", "bytescheduler-allreduce",
                           "bsp-ps", "wfbp-ps", "bytescheduler-ps", "bytescheduler-mxnet-ps", "ddp",
                           "horovod", "dataparallel", "distml-allreduce", "ftlib-allreduce"})
    EXPECT_TRUE(has_preset(name)) << name;
  EXPECT_THROW(make_preset("gossip"), InputError);
  const Strategy bs = make_preset("bytescheduler-allreduce");
  EXPECT_EQ(bs.partition_parameters, 4000000);
  EXPECT_EQ(bs.credit_parameters, 16000000);
  EXPECT_EQ(bs.partition_bytes, 16e6);  // fp32 until a scenario's model says otherwise
  EXPECT_EQ(bs.credit_bytes, 64e6);
  EXPECT_TRUE(bs.priority);
  EXPECT_EQ(make_preset("bsp-ps").partition_bytes, 4096000);
  // ddl-benchmarks' ByteScheduler-PS only orders the servers' engine: the workers run as WFBP-PS,
  // without credit, priority or crossing the barrier; ByteScheduler's own scheduling over a
  // parameter server is bytescheduler-mxnet-ps.
  const Strategy server_only = make_preset("bytescheduler-ps");
  const Strategy wfbp_ps = make_preset("wfbp-ps");
  EXPECT_EQ(server_only.credit_bytes, 0);
  EXPECT_FALSE(server_only.priority);
  EXPECT_FALSE(server_only.overlap_next_forward);
  EXPECT_EQ(server_only.timing, wfbp_ps.timing);
  EXPECT_EQ(server_only.grouping, wfbp_ps.grouping);
  EXPECT_EQ(server_only.partition_bytes, wfbp_ps.partition_bytes);
  const Strategy mxnet = make_preset("bytescheduler-mxnet-ps");
  EXPECT_EQ(mxnet.partition_bytes, 4e6);  // 1M and 4M parameters in fp32
  EXPECT_EQ(mxnet.credit_bytes, 16e6);
  EXPECT_TRUE(mxnet.priority);
  EXPECT_TRUE(mxnet.overlap_next_forward);
}

// ByteScheduler counts its partition and credit in parameters: their bytes follow the model's
// gradient precision, and a scenario's strategy.partition_size / credit (bytes) still win.
TEST(Presets, ByteSchedulerSizesFollowThePrecision) {
  const std::string path = std::string(SCALECAST_SOURCE_DIR) + "/scenarios/ddl-resnet50-10gbe.yaml";
  const Strategy fp32 = strategy_for(load_scenario(path), "bytescheduler-allreduce");
  EXPECT_EQ(fp32.partition_bytes, 16e6);
  EXPECT_EQ(fp32.credit_bytes, 64e6);
  const Strategy fp16 = strategy_for(load_scenario(path, {"model.precision=fp16"}), "bytescheduler-allreduce");
  EXPECT_EQ(fp16.partition_bytes, 8e6);
  EXPECT_EQ(fp16.credit_bytes, 32e6);
  const Strategy set = strategy_for(load_scenario(path, {"strategy.partition_size=1MB", "strategy.credit=2MB"}),
                                    "bytescheduler-allreduce");
  EXPECT_EQ(set.partition_bytes, 1e6);
  EXPECT_EQ(set.credit_bytes, 2e6);
}

}  // namespace
}  // namespace scalecast
