// Tests of the switchable mechanisms: each switch changes only what its mechanism owns, a
// scenario's switched_off list reaches the cluster, NCCL's settings and every method's strategy,
// and an unknown name is refused with its line; Horovod's cycle at 0 releases tensors as ready.
#include <gtest/gtest.h>

#include <set>

#include "tests/fixtures.h"
#include "sim/io/input_error.h"
#include "sim/schedules/grouping.h"
#include "sim/catalogs/mechanisms.h"
#include "sim/scenario/run_setup.h"
#include "sim/scenario/scenario.h"

namespace scalecast {
namespace {

TEST(Mechanisms, NamesAreDistinctAndParseBack) {
  std::set<std::string> seen;
  for (const auto& m : mechanisms()) {
    EXPECT_TRUE(seen.insert(m.name).second) << m.name;
    EXPECT_EQ(parse_mechanism(m.name), m.id);
    EXPECT_EQ(mechanism_info(m.id).name, m.name);
    EXPECT_FALSE(m.source.empty()) << m.name;
    EXPECT_FALSE(m.off.empty()) << m.name;
  }
  try {
    parse_mechanism("jitter");
    FAIL() << "an unknown mechanism was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("known: framework-overhead"), std::string::npos) << e.what();
  }
}

TEST(Mechanisms, EachClusterSwitchClearsOnlyItsOwnFigure) {
  Cluster base = testing::simple_cluster(2, 4);
  base.net.in_order_connections = true;
  base.shared_cores = 2;
  ASSERT_GT(base.net.call_overhead.s(), 0);
  ASSERT_GT(base.net.stream_bandwidth.bytes_per_s(), 0);
  ASSERT_GT(base.net.host_staging_bandwidth.bytes_per_s(), 0);
  const auto off = [&](Mechanism m) {
    Cluster c = base;
    collectives::nccl::NcclSettings n;
    switch_off({m}, c, n);
    return std::pair{c, n};
  };
  EXPECT_EQ(off(Mechanism::call_overhead).first.net.call_overhead.s(), 0);
  EXPECT_EQ(off(Mechanism::call_overhead).first.net.stream_bandwidth.bytes_per_s(), base.net.stream_bandwidth.bytes_per_s());
  EXPECT_EQ(off(Mechanism::core_copy).first.net.stream_bandwidth.bytes_per_s(), 0);
  EXPECT_EQ(off(Mechanism::core_copy).first.net.call_overhead.s(), base.net.call_overhead.s());
  EXPECT_EQ(off(Mechanism::host_staging).first.net.host_staging_bandwidth.bytes_per_s(), 0);
  EXPECT_FALSE(off(Mechanism::in_order_connections).first.net.in_order_connections);
  EXPECT_EQ(off(Mechanism::shared_cores).first.shared_cores, 0);
  EXPECT_EQ(off(Mechanism::nccl_protocols).second.proto, "simple");
  EXPECT_EQ(off(Mechanism::nccl_protocols).second.algo, "");
  EXPECT_EQ(off(Mechanism::nccl_algorithms).second.algo, "ring");
  EXPECT_TRUE(off(Mechanism::nccl_algorithms).second.pipeline_fill);
  EXPECT_FALSE(off(Mechanism::nccl_pipeline_fill).second.pipeline_fill);
  EXPECT_EQ(off(Mechanism::nccl_pipeline_fill).second.algo, "");
  // A strategy switch leaves the cluster alone.
  const auto [same, nccl] = off(Mechanism::priority);
  EXPECT_EQ(same.net.call_overhead.s(), base.net.call_overhead.s());
  EXPECT_TRUE(same.net.in_order_connections);
  EXPECT_EQ(nccl.proto, "");
}

TEST(Mechanisms, StrategySwitchesClearTheirKnobs) {
  Strategy bs = make_preset("bytescheduler-allreduce");
  size_by_precision(bs, 4);
  ASSERT_GT(bs.credit_bytes, 0);
  Strategy s = bs;
  switch_off({Mechanism::credit}, s);
  EXPECT_EQ(s.credit_bytes, 0);
  EXPECT_EQ(s.call_overhead_s, bs.call_overhead_s);
  s = bs;
  switch_off({Mechanism::priority, Mechanism::framework_overhead}, s);
  EXPECT_FALSE(s.priority);
  EXPECT_FALSE(s.overlap_next_forward);
  EXPECT_EQ(s.call_overhead_s, 0);
  EXPECT_EQ(s.credit_bytes, bs.credit_bytes);
  Strategy mg = make_preset("mgwfbp");
  switch_off({Mechanism::mgwfbp_small_merge}, mg);
  EXPECT_EQ(mg.mgwfbp_min_elements, 0);
  Strategy hv = make_preset("horovod");
  switch_off({Mechanism::fusion_cycle}, hv);
  EXPECT_EQ(hv.cycle_s, 0);
  Strategy fsdp = make_preset("fsdp");
  ASSERT_TRUE(fsdp.flat_parameters);
  switch_off({Mechanism::fsdp_flat_parameters}, fsdp);
  EXPECT_FALSE(fsdp.flat_parameters);
  EXPECT_EQ(fsdp.sharding, Sharding::parameters);
}

TEST(Mechanisms, AScenarioListReachesClusterNcclAndEveryMethod) {
  const Scenario s = parse_scenario(testing::kBaseScenario, "scen.yaml",
                                    {"cluster.network.connections=in-order",
                                     "switched_off=[in-order-connections, credit, nccl-protocols]"});
  EXPECT_FALSE(s.cluster.net.in_order_connections);
  EXPECT_EQ(s.strategy.nccl.proto, "simple");
  EXPECT_EQ(strategy_for(s, "bytescheduler-allreduce").credit_bytes, 0);
  EXPECT_TRUE(strategy_for(s, "bytescheduler-allreduce").priority);
  const Scenario plain = parse_scenario(testing::kBaseScenario, "scen.yaml", {"cluster.network.connections=in-order"});
  EXPECT_TRUE(plain.cluster.net.in_order_connections);
  EXPECT_EQ(strategy_for(plain, "bytescheduler-allreduce").credit_bytes, 16e6 * 4);
}

TEST(Mechanisms, AnUnknownNameInAScenarioNamesItsLine) {
  try {
    parse_scenario(testing::kBaseScenario + "switched_off: [credit, jitter]\n", "scen.yaml");
    FAIL() << "an unknown mechanism was accepted";
  } catch (const InputError& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("scen.yaml:15"), std::string::npos) << m;
    EXPECT_NE(m.find("jitter"), std::string::npos) << m;
  }
}

TEST(Mechanisms, HorovodWithoutItsCycleReleasesEachTensorWhenReady) {
  // Backward: 2 ms per layer from t = 10 ms; tensors ready at 12, 14, ..., 30 ms. With no
  // cycle each is its own message, released at once (no delay).
  const Workload w = testing::uniform_workload(10, 1e6);
  Strategy s = make_preset("horovod");
  switch_off({Mechanism::fusion_cycle}, s);
  const auto fused = group_gradients(w, s, {});
  ASSERT_EQ(fused.size(), 10u);
  for (const auto& m : fused) EXPECT_EQ(m.delay_s, 0);
}

}  // namespace
}  // namespace scalecast
