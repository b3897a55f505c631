// The calibrated cluster file: what calibrate writes reads back as scenario overrides that put
// the fitted values in place (the size curve as one map), names itself in errors, and carries the
// held-out spread prediction intervals use.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <sstream>

#include "calibration/calibrated_cluster.h"
#include "calibration/measurement_files.h"
#include "sim/io/input_error.h"
#include "sim/io/units.h"

namespace scalecast::calibration {
namespace {

const std::string kScenario = std::string(SCALECAST_SOURCE_DIR) + "/scenarios/testbed-4x1gbps.yaml";

TEST(CalibratedCluster, WrittenValuesOverrideTheScenarioAsFitted) {
  const Scenario base = load_scenario(kScenario);
  Cluster truth = base.cluster;
  truth.net.latency = Seconds(140e-6);
  truth.net.efficiency = 0.8;
  truth.net.size_curve = SizeCurve({{4 * 1024.0, 0.4}, {64 * 1024.0, 0.55}, {1024 * 1024.0, 0.9}, {16 * 1024.0 * 1024, 1}});
  std::vector<FitSample> samples;
  for (int n : {2, 4})
    for (double bytes = 1024; bytes <= 64e6; bytes *= 4) {
      CollectiveSample s;
      s.nodes = n;
      s.bytes = bytes;
      s.algorithm = "ring";
      FitSample f = fit_sample(s);
      f.measured_s = f.predict_s(truth);
      samples.push_back(f);
    }
  CalibrationRecord rec;
  rec.scenario = kScenario;
  rec.measurements = {"synthetic"};
  const auto parameters = transport_parameters(base.cluster, false);
  rec.fit = fit_transport(samples, base.cluster, parameters);
  rec.cv = fit_carried_over(samples, base.cluster, parameters, make_folds(samples, 3)).cv;
  const std::string path = ::testing::TempDir() + "/calibrated.yaml";
  {
    std::ofstream out(path);
    write_calibrated_cluster(out, rec);
  }
  const CalibratedCluster c = read_calibrated_cluster(path);
  EXPECT_TRUE(c.has_spread);
  EXPECT_LE(c.ratio_p05, 1.0 + 1e-6);
  EXPECT_GE(c.ratio_p95, 1.0 - 1e-6);
  const Scenario calibrated = load_scenario(kScenario, c.overrides);
  EXPECT_NEAR(calibrated.cluster.net.latency.s() / 140e-6, 1, 1e-3);
  EXPECT_NEAR(calibrated.cluster.net.efficiency / 0.8, 1, 1e-3);
  EXPECT_NEAR(calibrated.cluster.net.size_curve.at(64 * 1024.0) / 0.55, 1, 1e-3);
  EXPECT_EQ(calibrated.cluster.fabric.link_bandwidth.bytes_per_s(), base.cluster.fabric.link_bandwidth.bytes_per_s());
}

TEST(CalibratedCluster, ABadValueNamesTheFile) {
  const std::string path = ::testing::TempDir() + "/bad-calibrated.yaml";
  std::ofstream(path) << "calibration: {samples: 3}\ncluster:\n  network:\n    latency: 12 parsecs\n";
  const CalibratedCluster c = read_calibrated_cluster(path);
  try {
    load_scenario(kScenario, c.overrides);
    FAIL() << "expected an InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(path + ":4: cluster.network.latency"), std::string::npos) << e.what();
  }
  std::ofstream(path) << "cluster: {}\n";
  EXPECT_THROW(read_calibrated_cluster(path), InputError);
}

}  // namespace
}  // namespace scalecast::calibration
