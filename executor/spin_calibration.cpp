// Ordinary least squares of seconds on cycles; the slope is the inverse clock rate.
#include "executor/spin_calibration.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace scalecast::executor {

long long SpinCalibration::cycles_for(double seconds) const {
  const double cycles = (seconds - overhead_s) * cycles_per_s;
  return cycles > 0 ? std::llround(cycles) : 0;
}

SpinCalibration fit_spin(const std::vector<SpinSample>& samples) {
  const double n = static_cast<double>(samples.size());
  double sx = 0, sy = 0;
  for (const auto& s : samples) {
    sx += s.cycles;
    sy += s.seconds;
  }
  const double mx = sx / n, my = sy / n;
  double sxx = 0, sxy = 0;
  for (const auto& s : samples) {
    sxx += (s.cycles - mx) * (s.cycles - mx);
    sxy += (s.cycles - mx) * (s.seconds - my);
  }
  if (samples.size() < 2 || !(sxx > 0))
    throw std::logic_error("spin calibration needs runs of at least two different lengths");
  const double slope = sxy / sxx;
  if (!(slope > 0)) throw std::runtime_error("spin calibration: longer spins did not take longer");
  return {1 / slope, std::max(0.0, my - slope * mx)};
}

}  // namespace scalecast::executor
