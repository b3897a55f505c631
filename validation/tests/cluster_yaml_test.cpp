// Tests of the calibrated cluster YAML: a written `cluster:` block pasted into a scenario reads
// back to the same constants; fitting_cluster keeps the scenario's effective bandwidths.
#include "calibration/cluster_yaml.h"

#include <gtest/gtest.h>

#include <sstream>

#include "calibration/network_constants.h"
#include "sim/link_capacities.h"
#include "sim/scenario.h"
#include "sim/units.h"

namespace scalecast::calibration {
namespace {

const char* kScenarioHead =
    "name: pasted\n"
    "model: {name: resnet50, batch_per_gpu: 64}\n"
    "gpu: {type: v100-pcie}\n"
    "methods: [bsp-ps]\n"
    "gpus: [8]\n";

Scenario scenario_with(const std::string& cluster_block) {
  return parse_scenario(std::string(kScenarioHead) + cluster_block, "pasted.yaml");
}

TEST(ClusterYaml, PastedBlockReadsBackToTheSameConstants) {
  const Scenario base = scenario_with(
      "cluster:\n  gpus_per_node: 4\n  fabric: pcie3\n"
      "  network: {bandwidth: 10Gbps, transport: tcp}\n"
      "  parameter_server: {placement: dedicated, gpus_per_server: 4}\n");
  const Constants fitted = {3.21987 * units::kGBps, 0.612345, 123.456e-6, 7.65432 * units::kGbps};
  const Cluster c = with_constants(base.cluster, fitted);
  std::ostringstream yaml;
  write_cluster_yaml(yaml, c, {"a comment"});
  EXPECT_EQ(yaml.str().rfind("# a comment\ncluster:\n", 0), 0u) << yaml.str();
  const Scenario pasted = scenario_with(yaml.str());
  const Constants back = read_constants(pasted.cluster);
  for (std::size_t i = 0; i < kConstantCount; ++i) EXPECT_NEAR(back[i] / fitted[i], 1.0, 1e-5) << i;
  EXPECT_EQ(pasted.cluster.net.stream_bandwidth, 0.0);
  EXPECT_EQ(pasted.cluster.net.host_staging_bandwidth, 0.0);
  EXPECT_EQ(pasted.cluster.gpus_per_node, 4);
  EXPECT_EQ(pasted.cluster.ps.gpus_per_server, 4);
  EXPECT_EQ(pasted.cluster.transport, Transport::tcp);
  EXPECT_NEAR(link_capacities(pasted.cluster).transfer_bandwidth(true) / link_capacities(c).transfer_bandwidth(true), 1.0,
              1e-5);
}

TEST(ClusterYaml, FittingClusterKeepsTheEffectiveBandwidths) {
  const Scenario s = scenario_with(
      "cluster:\n  gpus_per_node: 4\n  fabric: pcie3\n"
      "  network: {bandwidth: 100Gbps, transport: tcp}\n"
      "  parameter_server: {placement: dedicated}\n");
  const Cluster f = fitting_cluster(s.cluster);
  EXPECT_EQ(f.net.stream_bandwidth, 0.0);
  EXPECT_EQ(f.net.host_staging_bandwidth, 0.0);
  // TCP defaults cap 100 Gbps at 2 streams x 25 Gbit/s: efficiency 0.5 keeps 50 Gbit/s.
  EXPECT_NEAR(link_capacities(f).transfer_bandwidth(true), link_capacities(s.cluster).transfer_bandwidth(true), 1e-6);
  EXPECT_NEAR(f.net.efficiency, 0.5, 1e-12);
  const ConstantBounds b = physical_bounds(f);
  const Constants v = read_constants(f);
  for (std::size_t i = 0; i < kConstantCount; ++i) {
    EXPECT_GE(v[i], b.lower[i]) << i;
    EXPECT_LE(v[i], b.upper[i]) << i;
  }
  EXPECT_EQ(format_constant(1, 0.5), "0.5");
  EXPECT_EQ(format_constant(2, 25e-6), "25 us");
}

}  // namespace
}  // namespace scalecast::calibration
