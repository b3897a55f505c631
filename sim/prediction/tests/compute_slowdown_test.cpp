// The compute slowdown a run gets when its scenario gives none: 1.6 x the share of the GPU's SMs
// that NCCL's channels hold, none for copies, Lee et al.'s average for a GPU the catalog lacks.
#include <gtest/gtest.h>

#include "sim/prediction/prediction.h"
#include "sim/scenario/run_setup.h"
#include "sim/scenario/scenario.h"
#include "sim/scheduling/compute_slowdown.h"
#include "sim/zoo/zoo.h"

namespace scalecast {
namespace {

using scheduling::slowdown_from_held_sms;

Scenario scenario(const std::string& name, const std::vector<std::string>& sets = {}) {
  return load_scenario(std::string(SCALECAST_SOURCE_DIR) + "/scenarios/" + name + ".yaml", sets);
}

TEST(ComputeSlowdown, NcclChannelsOverTheGpusSms) {
  // ddl-benchmarks' V100-PCIe nodes (80 SMs): NCCL's search finds one PCIe ring, run on 2 channels.
  const Scenario ddl = scenario("ddl-resnet50-10gbe");
  const Cluster v100 = sized_for(ddl.cluster, 16);
  EXPECT_NEAR(slowdown_from_held_sms(v100, make_preset("wfbp-allreduce")), 1.6 * 2 / 80, 1e-12);
  // DataParallel reduces and broadcasts with NCCL too.
  EXPECT_NEAR(slowdown_from_held_sms(v100, make_preset("dataparallel")), 1.6 * 2 / 80, 1e-12);
  // One H200 node (132 SMs): NVLink rings on 24 channels.
  const Cluster h200 = sized_for(scenario("whatif-h200-resnet50-profiled").cluster, 8);
  EXPECT_NEAR(slowdown_from_held_sms(h200, make_preset("ddp")), 1.6 * 24 / 132, 1e-12);
}

TEST(ComputeSlowdown, CopiesHoldNoSm) {
  const Scenario ddl = scenario("ddl-resnet50-10gbe");
  Strategy gloo = make_preset("wfbp-allreduce");
  gloo.library = CollectiveLibrary::gloo;
  EXPECT_EQ(slowdown_from_held_sms(sized_for(ddl.cluster, 16), gloo), 0);
  // BytePS: pushes and pulls are copies; only a node of several GPUs reduces among them with NCCL.
  const Strategy ps = make_preset("wfbp-ps");
  EXPECT_NEAR(slowdown_from_held_sms(sized_for(ddl.cluster, 16), ps), 1.6 * 2 / 80, 1e-12);
  const Scenario one_a_node = scenario("ddl-resnet50-10gbe", {"cluster.gpus_per_node=1"});
  EXPECT_EQ(slowdown_from_held_sms(sized_for(one_a_node.cluster, 16), ps), 0);
}

TEST(ComputeSlowdown, AGpuOutsideTheCatalogKeepsThePublishedAverage) {
  Cluster c;
  c.gpu = "not-in-the-catalog";
  EXPECT_DOUBLE_EQ(slowdown_from_held_sms(c, make_preset("wfbp-allreduce")), kComputeSlowdownUnderComm);
}

TEST(ComputeSlowdown, ARunTakesItUnlessTheScenarioOrASwitchGivesOne) {
  const Workload w = zoo::build_model("resnet50", {});
  const WorkLimits limits;
  // The scenario runs NCCL 2.4.8, which keeps its one PCIe ring as one channel (2.5 on doubles it).
  EXPECT_NEAR(schedule_for(scenario("ddl-resnet50-10gbe"), w, "wfbp-allreduce", 16, limits, 1).cluster.compute_slowdown,
              1.6 * 1 / 80, 1e-12);
  EXPECT_DOUBLE_EQ(schedule_for(scenario("ddl-resnet50-10gbe", {"cluster.compute_slowdown=0.3"}), w, "wfbp-allreduce",
                                16, limits, 1)
                       .cluster.compute_slowdown,
                   0.3);
  EXPECT_DOUBLE_EQ(schedule_for(scenario("ddl-resnet50-10gbe", {"switched_off=[compute-slowdown]"}), w,
                                "wfbp-allreduce", 16, limits, 1)
                       .cluster.compute_slowdown,
                   0);
}

TEST(ComputeSlowdown, TheScenariosNcclChannelBoundHoldsFewerSms) {
  // NCCL_MAX_NCHANNELS=8 on the H200 node: 8 of its 24 channels, 8 SMs held.
  const Workload w = zoo::build_model("resnet50", {});
  const Scenario bounded = scenario("whatif-h200-resnet50-profiled", {"strategy.nccl_max_channels=8"});
  EXPECT_NEAR(slowdown_from_held_sms(sized_for(bounded.cluster, 8), strategy_for(bounded, "ddp")), 1.6 * 8 / 132,
              1e-12);
  EXPECT_NEAR(schedule_for(bounded, w, "ddp", 8, WorkLimits{}, 1).cluster.compute_slowdown, 1.6 * 8 / 132, 1e-12);
}

}  // namespace
}  // namespace scalecast
