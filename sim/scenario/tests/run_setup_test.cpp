// A run's setup: the method's preset under the scenario's strategy settings, and the nodes a GPU
// count takes.
#include "sim/io/input_error.h"
#include "sim/scenario/run_setup.h"

#include <gtest/gtest.h>

#include <stdexcept>

#include "tests/fixtures.h"

namespace scalecast {
namespace {

TEST(RunSetup, StrategyForAppliesOverrides) {
  const Scenario s = parse_scenario(
      testing::kBaseScenario, "scen.yaml",
      {"strategy={allreduce: tree, bucket_size: 4MB, partition_size: 2MB, call_overhead: 0us}"});
  const Strategy ddp = strategy_for(s, "ddp");
  const Strategy ddp_preset = make_preset("ddp");
  EXPECT_EQ(ddp.method, "ddp");
  EXPECT_EQ(ddp.algorithm, "tree");
  EXPECT_DOUBLE_EQ(ddp.bucket_bytes, 4e6);
  EXPECT_DOUBLE_EQ(ddp.partition_bytes, 2e6);
  EXPECT_EQ(ddp.call_overhead_s, 0);
  EXPECT_DOUBLE_EQ(ddp.first_bucket_bytes, ddp_preset.first_bucket_bytes);  // not set: preset's
  EXPECT_DOUBLE_EQ(ddp.cycle_s, ddp_preset.cycle_s);
  EXPECT_DOUBLE_EQ(ddp.credit_bytes, ddp_preset.credit_bytes);
  EXPECT_EQ(ddp.grouping, ddp_preset.grouping);

  // The all-reduce algorithm applies only where the preset aggregates by all-reduce.
  const Strategy ps = strategy_for(s, "bsp-ps");
  EXPECT_EQ(ps.aggregation, Aggregation::parameter_server);
  EXPECT_EQ(ps.algorithm, make_preset("bsp-ps").algorithm);
  EXPECT_DOUBLE_EQ(ps.bucket_bytes, 4e6);

  // Without overrides the preset comes back unchanged.
  const Strategy plain = strategy_for(parse_scenario(testing::kBaseScenario, "scen.yaml"), "horovod");
  const Strategy horovod = make_preset("horovod");
  EXPECT_EQ(plain.algorithm, horovod.algorithm);
  EXPECT_DOUBLE_EQ(plain.bucket_bytes, horovod.bucket_bytes);
  EXPECT_DOUBLE_EQ(plain.call_overhead_s, horovod.call_overhead_s);
  EXPECT_THROW(strategy_for(s, "no-such-method"), InputError);
}

TEST(RunSetup, NodesFor) {
  Cluster c;
  c.gpus_per_node = 4;
  EXPECT_EQ(nodes_for(c, 1), 1);
  EXPECT_EQ(nodes_for(c, 2), 1);
  EXPECT_EQ(nodes_for(c, 4), 1);
  EXPECT_EQ(nodes_for(c, 8), 2);
  EXPECT_EQ(nodes_for(c, 32), 8);
  EXPECT_THROW(nodes_for(c, 6), InputError);
  EXPECT_THROW(nodes_for(c, 0), InputError);
}

}  // namespace
}  // namespace scalecast
