// Prediction intervals: the normal quantile, factors symmetric in log, the spread read back from
// held-out percentiles, and on log-normal samples the claimed share of them inside the band.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "sim/io/input_error.h"
#include "sim/prediction/prediction_interval.h"

namespace scalecast {
namespace {

TEST(PredictionInterval, NormalQuantileMatchesTables) {
  EXPECT_NEAR(normal_quantile(0.5), 0, 1e-12);
  EXPECT_NEAR(normal_quantile(0.95), 1.6448536, 1e-6);
  EXPECT_NEAR(normal_quantile(0.975), 1.9599640, 1e-6);
  EXPECT_NEAR(normal_quantile(0.05), -1.6448536, 1e-6);
  EXPECT_THROW(normal_quantile(0), std::logic_error);
  EXPECT_THROW(normal_quantile(1), std::logic_error);
}

TEST(PredictionInterval, FactorsAreSymmetricInLogAndGrowWithTheLevel) {
  const Uncertainty u = default_uncertainty();
  const IntervalFactors f90 = interval_factors(u, 90), f50 = interval_factors(u, 50);
  EXPECT_NEAR(std::log(f90.low), -std::log(f90.high), 1e-12);
  EXPECT_LT(f90.low, f50.low);
  EXPECT_GT(f90.high, f50.high);
  EXPECT_NEAR(std::log(f90.high), 1.6448536 * u.sigma(), 1e-6);
  EXPECT_THROW(interval_factors(u, 100), std::logic_error);
  EXPECT_THROW(interval_factors(u, 0), std::logic_error);
}

TEST(PredictionInterval, CalibrationNarrowsOnlyTheTransportPart) {
  const Uncertainty d = default_uncertainty();
  const Uncertainty c = calibrated_uncertainty(0.02, "test");
  EXPECT_EQ(c.schedule_sigma, d.schedule_sigma);
  EXPECT_LT(c.sigma(), d.sigma());
  EXPECT_GE(c.sigma(), d.schedule_sigma);
}

TEST(PredictionInterval, SpreadReadBackFromHeldOutPercentiles) {
  const double sigma = 0.07;
  const double z = normal_quantile(0.95);
  EXPECT_NEAR(sigma_from_p05_p95(std::exp(-z * sigma), std::exp(z * sigma)), sigma, 1e-9);
  EXPECT_NEAR(sigma_from_p05_p95(1, 1), 0, 1e-12);
  EXPECT_THROW(sigma_from_p05_p95(1.2, 1.1), InputError);
}

TEST(PredictionInterval, CoversTheClaimedShareOfLogNormalErrors) {
  const Uncertainty u = calibrated_uncertainty(0.1, "test");
  std::mt19937_64 rng(7);
  std::normal_distribution<double> noise(0, u.sigma());
  for (const double level : {50.0, 80.0, 90.0, 98.0}) {
    const IntervalFactors f = interval_factors(u, level);
    int inside = 0;
    const int n = 20000;
    for (int i = 0; i < n; ++i) {
      const double ratio = std::exp(noise(rng));  // measured / predicted
      inside += ratio >= f.low && ratio <= f.high;
    }
    EXPECT_NEAR(100.0 * inside / n, level, 1.0) << level;
  }
}

}  // namespace
}  // namespace scalecast
