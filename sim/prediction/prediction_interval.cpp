// Prediction intervals from log-normal residual spreads; the default spreads are measured on the
// published tables with `scalecast validate --report DIR` (docs/MODEL.md says how).
#include "sim/prediction/prediction_interval.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "sim/io/input_error.h"

namespace scalecast {
namespace {

// Root-mean-square of log(measured / predicted) over the zero-shot rows of ddl-benchmarks and
// distml (analytical backend, 180 rows; docs/MODEL.md): bsp-* rows, and every other row.
constexpr double kBspLogRms = 0.0676;
constexpr double kAllOtherLogRms = 0.1339;

}  // namespace

double Uncertainty::sigma() const {
  return std::sqrt(transport_sigma * transport_sigma + schedule_sigma * schedule_sigma +
                   compute_sigma * compute_sigma);
}

Uncertainty with_compute_model(Uncertainty u, double compute_share) {
  u.compute_sigma = kComputeModelLogRms * std::clamp(compute_share, 0.0, 1.0);
  u.source += "; compute model's residuals on the published single-GPU table";
  return u;
}

Uncertainty default_uncertainty() {
  Uncertainty u;
  u.transport_sigma = kBspLogRms;
  u.schedule_sigma = std::sqrt(kAllOtherLogRms * kAllOtherLogRms - kBspLogRms * kBspLogRms);
  u.source = "zero-shot residuals of the published tables";
  return u;
}

Uncertainty calibrated_uncertainty(double transport_sigma, const std::string& source) {
  Uncertainty u = default_uncertainty();
  u.transport_sigma = transport_sigma;
  u.source = source;
  return u;
}

double sigma_from_p05_p95(double ratio_p05, double ratio_p95) {
  if (!(ratio_p05 > 0) || !(ratio_p95 >= ratio_p05))
    throw InputError("held-out ratios need 0 < p05 <= p95");
  return (std::log(ratio_p95) - std::log(ratio_p05)) / (2 * normal_quantile(0.95));
}

IntervalFactors interval_factors(const Uncertainty& u, double level_pct) {
  if (!(level_pct > 0 && level_pct < 100)) throw std::logic_error("an interval level in (0, 100) %");
  const double half = normal_quantile(0.5 + level_pct / 200) * u.sigma();
  return {std::exp(-half), std::exp(half)};
}

double normal_quantile(double p) {
  if (!(p > 0 && p < 1)) throw std::logic_error("a probability in (0, 1)");
  // Bisection on the CDF 0.5 * erfc(-x / sqrt 2): exact to double precision in 200 halvings.
  double lo = -40, hi = 40;
  for (int i = 0; i < 200 && hi - lo > 1e-15; ++i) {
    const double mid = 0.5 * (lo + hi);
    (0.5 * std::erfc(-mid / std::sqrt(2.0)) < p ? lo : hi) = mid;
  }
  return 0.5 * (lo + hi);
}

}  // namespace scalecast
