// Tests of the calibration on the measured tables: LM on a known curve and at a bound, a fit to
// rows the model itself generated, and a split that cannot leak.
#include <gtest/gtest.h>

#include <cmath>

#include "calibration/levenberg_marquardt.h"
#include "calibration/transport_fit.h"
#include "sim/prediction/prediction.h"
#include "sim/backends/backend_registry.h"
#include "sim/io/units.h"
#include "validation/calibration_split.h"
#include "validation/testbeds.h"

namespace scalecast::validation {
namespace {

const std::string kData = std::string(SCALECAST_SOURCE_DIR) + "/validation/data";

// The rows of one model on one network of the ddl table, and their cases.
struct Subset {
  std::vector<MeasuredRow> rows;
  std::vector<Case> cases;
};

Subset ddl_subset(const std::vector<std::string>& models, const std::string& network) {
  Subset s;
  for (const auto& r : read_measurements(kData))
    if (r.table == "ddl-benchmarks-2020-05-29" && r.network == network &&
        std::find(models.begin(), models.end(), r.model) != models.end())
      s.rows.push_back(r);
  s.cases = make_cases(s.rows, TestbedMap::read(kData));
  return s;
}

TEST(Calibration, LevenbergMarquardtFitsAnExponential) {
  // y = 3 exp(-0.5 t) sampled exactly; start far away.
  const Eigen::VectorXd t = Eigen::VectorXd::LinSpaced(12, 0, 6);
  auto residuals = [&](const Eigen::VectorXd& x) {
    return Eigen::VectorXd(
        (x[0] * (-x[1] * t.array()).exp() - 3 * (-0.5 * t.array()).exp()).matrix());
  };
  const Eigen::Vector2d lower(0.1, 0.01), upper(10, 5);
  const auto r = calibration::levenberg_marquardt(residuals, Eigen::Vector2d(1, 2), lower, upper);
  EXPECT_NEAR(r.x[0], 3.0, 1e-6);
  EXPECT_NEAR(r.x[1], 0.5, 1e-6);
  EXPECT_LT(r.cost, 1e-12);
}

TEST(Calibration, LevenbergMarquardtHoldsAVariableAtItsBound) {
  // The unconstrained optimum x0 = 5 lies above the bound 2; x1 = -1 is free.
  auto residuals = [](const Eigen::VectorXd& x) {
    return Eigen::Vector2d(x[0] - 5, x[1] + 1).eval();
  };
  const auto r = calibration::levenberg_marquardt(
      residuals, Eigen::Vector2d(0, 0), Eigen::Vector2d(-10, -10), Eigen::Vector2d(2, 10));
  EXPECT_DOUBLE_EQ(r.x[0], 2.0);
  EXPECT_NEAR(r.x[1], -1.0, 1e-6);
  EXPECT_THROW(calibration::levenberg_marquardt(residuals, Eigen::Vector2d(0, 0),
                                                Eigen::Vector2d(1, 0), Eigen::Vector2d(0, 1)),
               std::logic_error);
}

TEST(Calibration, FitsThroughputRowsMadeByKnownConstants) {
  Subset s = ddl_subset({"resnet50", "bert-base"}, "10GbE-TCP");
  const auto backend = make_backend("analytical");
  // Rows made by the model itself with other constants: the fit reproduces them.
  for (std::size_t i = 0; i < s.rows.size(); ++i) {
    if (!s.cases[i].expressible) continue;
    Scenario sc = s.cases[i].scenario;
    sc.cluster.net.efficiency = 0.55;
    sc.cluster.fabric.link_bandwidth = Rate(4.0 * units::kGBps);
    s.rows[i].throughput = predict(sc, s.cases[i].workload, s.rows[i].method, s.rows[i].gpus, *backend).row.throughput;
  }
  const GroupFit g = fit_group(s.rows, s.cases, "ddl-benchmarks-2020-05-29", "10GbE-TCP", *backend);
  ASSERT_TRUE(g.fitted);
  EXPECT_EQ(g.rows.size(), 16u);
  EXPECT_LT(calibration::mape(g.fit.fitted_residuals), 0.5);
  EXPECT_LT(calibration::mape(g.fit.fitted_residuals), calibration::mape(g.fit.start_residuals));
}

TEST(Calibration, HeldOutRowsNeverReachTheFit) {
  Subset s = ddl_subset({"resnet50"}, "10GbE-TCP");
  const auto backend = make_backend("analytical");
  const GroupFit before =
      fit_group(s.rows, s.cases, "ddl-benchmarks-2020-05-29", "10GbE-TCP", *backend);
  ASSERT_TRUE(before.fitted);
  for (std::size_t i : before.rows) EXPECT_TRUE(is_calibration_row(s.rows[i]));
  EXPECT_EQ(before.rows.size(), 8u);
  // Change every held-out measurement wildly: the constants must not move at all.
  for (auto& r : s.rows)
    if (!is_calibration_row(r)) r.throughput *= 3;
  const GroupFit after =
      fit_group(s.rows, s.cases, "ddl-benchmarks-2020-05-29", "10GbE-TCP", *backend);
  auto values = [](const GroupFit& g) {
    std::vector<double> v;
    for (const auto& r : g.fit.results) v.push_back(r.value);
    return v;
  };
  EXPECT_EQ(values(after), values(before));
  EXPECT_EQ(after.rows, before.rows);
  // Whereas calibration rows do move them (every BSP row across the network, slower alike).
  for (auto& r : s.rows)
    if (is_calibration_row(r) && r.gpus >= 8) r.throughput *= 0.7;
  const GroupFit moved =
      fit_group(s.rows, s.cases, "ddl-benchmarks-2020-05-29", "10GbE-TCP", *backend);
  EXPECT_NE(values(moved), values(before));
}

TEST(Calibration, ANetworkWithoutBspRowsIsNotFitted) {
  std::vector<MeasuredRow> rows;
  for (const auto& r : read_measurements(kData))
    if (r.table == "distml-2021" && r.network == "AWS") rows.push_back(r);
  const auto cases = make_cases(rows, TestbedMap::read(kData));
  const GroupFit g = fit_group(rows, cases, "distml-2021", "AWS", *make_backend("analytical"));
  EXPECT_FALSE(g.fitted);
  EXPECT_NE(g.reason.find("calibrated = zero-shot"), std::string::npos);
}

}  // namespace
}  // namespace scalecast::validation
