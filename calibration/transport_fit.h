// Fits transport parameters to measured samples: bounded Levenberg-Marquardt on the log of
// each parameter against log(predicted / measured) residuals; keeps only what the measurements
// identify (the rest stays at its default and says so), with 95% intervals; keeps only what
// cross-validation shows to carry over, and reports the held-out error before and after.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "calibration/transport_parameters.h"
#include "sim/types/cluster.h"

namespace scalecast::calibration {

// One measurement: what it measured (seconds) and how the model predicts it on a cluster.
struct FitSample {
  std::string where;
  double measured_s = 0;
  std::function<double(const Cluster&)> predict_s;
  std::string workload;  // what ran (a throughput row's model); empty for a sweep or a collective
};

enum class FitStatus {
  fitted,          // identified by the measurements
  at_bound,        // the measurements would take it past its physical range: held at the default
  not_identified,  // the measurements cannot tell its value apart: held at the default
  no_effect,       // the measurements do not depend on it: held at the default
  not_carried_over,  // it improves only the measurements it was fitted to: held at the default
};
std::string to_string(FitStatus status);

struct ParameterFit {
  double start = 0;  // the default (the base cluster's value)
  double value = 0;
  double low = 0, high = 0;  // 95% interval (fitted only)
  FitStatus status = FitStatus::fitted;
};

struct TransportFit {
  Cluster cluster;                    // the base cluster with the fitted values
  std::vector<Parameter> parameters;
  std::vector<ParameterFit> results;  // one per parameter
  std::vector<double> start_residuals, fitted_residuals;  // log(predicted / measured)
  int evaluations = 0;
};

// Throws std::logic_error (a bug of the caller) without samples. Parameters keep `base`'s values
// where not fitted.
TransportFit fit_transport(const std::vector<FitSample>& samples, const Cluster& base,
                           const std::vector<Parameter>& parameters);

// `target` with the fitted parameters' values (fitted or at a bound) put in place.
Cluster apply_fit(const TransportFit& fit, Cluster target);
// `target` with every parameter's value taken from `from` (a fit moves them on one cluster; the
// samples of other scenarios on the same network take them over).
Cluster take_parameters(const std::vector<Parameter>& parameters, const Cluster& from, Cluster target);

// Cross-validation folds: one per workload where the samples name three or more (a constant of
// the cluster must hold for a workload it was not fitted to), else `folds` dealt out in turn.
struct Folds {
  std::vector<int> of;  // each sample's fold
  int count = 0;
  bool by_workload = false;
};
Folds make_folds(const std::vector<FitSample>& samples, int folds);
// Folds that hold out what dealt folds cannot: each of two or more groups whole (a measurement
// file per fold: `group` names each sample's), or the sizes below the median size against the
// rest (`bytes` of each sample): a constant that serves only small or only large messages, or
// only one run, does not carry over.
Folds folds_by_group(const std::vector<std::string>& group);
Folds folds_by_size(const std::vector<double>& bytes);

// Each sample predicted by the defaults, and by the constants kept fitted to the other folds:
// log(predicted / measured) of both, sample by sample.
struct CrossValidation {
  int folds = 0;
  bool by_workload = false;
  std::vector<double> before, after;
};

// The fit of the parameters that carry over to measurements the fit did not see: from the full
// fit, the fitted parameter whose removal lowers the cross-validated error most goes back to its
// default (not_carried_over), while a removal does not raise that error; where the defaults
// cross-validate no worse than what is left, every parameter goes back. The rest are fitted
// again. `cv` is the cross-validation of what is kept (its selection saw the same folds).
struct CarriedOverFit {
  TransportFit fit;
  CrossValidation cv;
  double full_error_pct = 0;  // cross-validated MAPE with every identified parameter fitted
};
CarriedOverFit fit_carried_over(const std::vector<FitSample>& samples, const Cluster& base,
                                const std::vector<Parameter>& parameters, const Folds& folds);

// Mean absolute percentage error of times whose log(predicted / measured) are given.
double mape(const std::vector<double>& log_ratios);
// The q-quantile (0..1) of the values, linear between order statistics.
double quantile(std::vector<double> values, double q);

}  // namespace scalecast::calibration
