// The size curve: log-linear between anchors, flat outside, refused when malformed; and how it
// slows a ring's network steps by their own size, read from a scenario's bandwidth_by_size.
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

#include "tests/fixtures.h"
#include "sim/collectives/algorithm_choice.h"
#include "sim/io/input_error.h"
#include "sim/network/link_capacities.h"
#include "sim/scenario/scenario.h"
#include "sim/types/size_curve.h"

namespace scalecast {
namespace {

TEST(SizeCurve, InterpolatesInLogSizeAndIsFlatOutside) {
  const SizeCurve c({{1e3, 0.2}, {1e5, 0.6}, {1e7, 1.0}});
  EXPECT_DOUBLE_EQ(c.at(10), 0.2);
  EXPECT_DOUBLE_EQ(c.at(1e3), 0.2);
  EXPECT_NEAR(c.at(1e4), 0.4, 1e-12);  // halfway in log size
  EXPECT_NEAR(c.at(1e6), 0.8, 1e-12);
  EXPECT_DOUBLE_EQ(c.at(1e9), 1.0);
  EXPECT_DOUBLE_EQ(SizeCurve().at(5), 1.0);
}

TEST(SizeCurve, RefusesMalformedAnchors) {
  EXPECT_THROW(SizeCurve({{0, 0.5}}), InputError);
  EXPECT_THROW(SizeCurve({{1e3, 0}}), InputError);
  EXPECT_THROW(SizeCurve({{1e3, 1.5}}), InputError);
  EXPECT_THROW(SizeCurve({{1e3, 0.5}, {1e3, 0.6}}), InputError);
}

TEST(SizeCurve, SlowsEachRingStepByTheStepsOwnSize) {
  Cluster c = testing::simple_cluster(8, 1);
  const auto& ring = collectives::allreduce_algorithm("ring");
  const double flat = ring.cost_s(link_capacities(c, Strategy{}), 8e6);
  c.net.size_curve = SizeCurve({{1e6, 0.5}, {1e8, 1.0}});  // a step of 1 MB: half the rate
  const LinkCapacities l = link_capacities(c, Strategy{});
  const double bulk = l.network_link().bandwidth.bytes_per_s();
  EXPECT_NEAR(ring.cost_s(l, 8e6), 14 * (l.network_latency.s() + 1e6 / (0.5 * bulk)), 1e-12);
  EXPECT_GT(ring.cost_s(l, 8e6), flat);
  EXPECT_NEAR(ring.cost_s(l, 8e8), 14 * (l.network_latency.s() + 1e8 / bulk), 1e-9);
}

TEST(SizeCurve, ReadFromTheScenario) {
  const Scenario s = parse_scenario(
      "name: t\nmodel: {name: resnet18, batch_per_gpu: 8}\ngpu: {type: v100-pcie}\n"
      "cluster:\n  gpus_per_node: 1\n  fabric: pcie3\n"
      "  network: {bandwidth: 10Gbps, transport: tcp, bandwidth_by_size: {16KiB: 0.4, 4MiB: 0.95}}\n"
      "methods: [wfbp-allreduce]\ngpus: [2]\n",
      "t.yaml");
  EXPECT_NEAR(s.cluster.net.size_curve.at(16 * 1024), 0.4, 1e-12);
  EXPECT_NEAR(s.cluster.net.size_curve.at(64e6), 0.95, 1e-12);
  EXPECT_THROW(parse_scenario("name: t\nmodel: {name: resnet18, batch_per_gpu: 8}\ngpu: {type: v100-pcie}\n"
                              "cluster:\n  gpus_per_node: 1\n  fabric: pcie3\n"
                              "  network: {bandwidth: 10Gbps, transport: tcp, bandwidth_by_size: {16KiB: 1.4}}\n"
                              "methods: [wfbp-allreduce]\ngpus: [2]\n",
                              "t.yaml"),
               InputError);
}

}  // namespace
}  // namespace scalecast
