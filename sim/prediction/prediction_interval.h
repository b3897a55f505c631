// How far a prediction may land from the measurement: a log-normal spread of measured / predicted
// iteration time, split into the transport (what calibration fits), the schedule model (not), and
// the compute model where no profile or measured throughput backs the compute time.
#pragma once

#include <string>

namespace scalecast {

struct Uncertainty {
  double transport_sigma = 0;  // standard deviation of log(measured / predicted) from the network
  double schedule_sigma = 0;   // ... from overlap, framework and compute effects
  double compute_sigma = 0;    // ... from the compute model (0: compute measured)
  std::string source;          // where the figures come from, for headers
  double sigma() const;        // the three combined as independent errors
};

// The compute model's spread: the root-mean-square of log(published / predicted) over the
// expressible rows of validation/data/single-gpu (`scalecast validate` prints it; a test holds
// this figure to the table's).
inline constexpr double kComputeModelLogRms = 0.234;

// `u` widened by the compute model's spread, for a compute time from the model alone that is
// `compute_share` of the iteration (an error of x in compute moves the iteration by x^share).
Uncertainty with_compute_model(Uncertainty u, double compute_share = 1);

// Uncalibrated predictions: the zero-shot log residuals of the published measured tables
// (docs/MODEL.md, "Prediction intervals"): BSP rows (one message per iteration, so transport
// alone) 0.0676; all other rows 0.1339, so the schedule model adds sqrt(0.1339^2 - 0.0676^2).
Uncertainty default_uncertainty();
// After calibration: the transport's spread measured on held-out samples, the schedule model's
// as by default (calibration of the transport does not remove it).
Uncertainty calibrated_uncertainty(double transport_sigma, const std::string& source);
// The transport spread of held-out measured / predicted ratios given at their 5th and 95th
// percentiles, read as a log-normal's.
double sigma_from_p05_p95(double ratio_p05, double ratio_p95);

// Factors on a predicted iteration time that bound the central `level_pct` % of measurements
// (level in (0, 100)); throughput takes their inverses.
struct IntervalFactors {
  double low = 1, high = 1;
  // Whether a measured throughput lies in the interval of a predicted one: samples per iteration
  // time, so predicted / high .. predicted / low.
  bool holds_throughput(double predicted, double measured) const {
    return measured >= predicted / high && measured <= predicted / low;
  }
};
IntervalFactors interval_factors(const Uncertainty& u, double level_pct);

// The standard normal's inverse CDF, p in (0, 1).
double normal_quantile(double p);

}  // namespace scalecast
