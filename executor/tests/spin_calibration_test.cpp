// The spin kernel's calibration: the fitted clock and overhead reproduce a known line, and the
// cycles asked for a duration make it last that long (no GPU needed).
#include <gtest/gtest.h>

#include <stdexcept>

#include "executor/spin_calibration.h"

namespace scalecast::executor {
namespace {

TEST(SpinCalibration, RecoversClockAndOverhead) {
  const double rate = 1.755e9, overhead = 6e-6;
  std::vector<SpinSample> samples;
  for (double cycles : {0.0, 2e5, 2e6, 2e7, 2e7}) samples.push_back({cycles, overhead + cycles / rate});
  const SpinCalibration c = fit_spin(samples);
  EXPECT_NEAR(c.cycles_per_s, rate, rate * 1e-9);
  EXPECT_NEAR(c.overhead_s, overhead, 1e-12);
  EXPECT_NEAR(static_cast<double>(c.cycles_for(1e-3)), (1e-3 - overhead) * rate, 1.0);
  EXPECT_EQ(c.cycles_for(1e-6), 0) << "shorter than the launch overhead: no spin";
}

TEST(SpinCalibration, RefusesUselessSamples) {
  EXPECT_THROW(fit_spin({}), std::logic_error);
  EXPECT_THROW(fit_spin({{1e6, 1e-3}, {1e6, 2e-3}}), std::logic_error);
  EXPECT_THROW(fit_spin({{1e6, 2e-3}, {2e6, 1e-3}}), std::runtime_error);
}

}  // namespace
}  // namespace scalecast::executor
