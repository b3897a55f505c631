// Fits a network's cluster constants to measured throughputs of calibration runs by bounded
// Levenberg-Marquardt in log-parameter space; residuals are relative throughput errors.
#pragma once

#include <string>
#include <vector>

#include "calibration/levenberg_marquardt.h"
#include "calibration/network_constants.h"
#include "sim/backend.h"
#include "sim/scenario.h"
#include "sim/workload.h"

namespace scalecast::calibration {

// One measured run: its scenario (whose cluster the constants replace), workload, method, GPUs.
struct CalibrationPoint {
  const Scenario* scenario = nullptr;
  const Workload* workload = nullptr;
  std::string method;
  int gpus = 0;
  double measured = 0;  // samples/s
};

struct NetworkFit {
  Cluster cluster;  // the first point's cluster with the fitted constants
  Constants start{}, fitted{};
  ConstantBounds bounds;
  std::array<bool, kConstantCount> constrained{};  // the residuals depend on it at the fit
  std::array<bool, kConstantCount> at_bound{};
  std::vector<double> start_errors, fitted_errors;  // (predicted - measured) / measured
  int iterations = 0, evaluations = 0;
  std::string stop_reason;
};

// Root mean square of relative errors.
double rms(const std::vector<double>& relative_errors);

// Throughput (samples/s) of one run with the given cluster in place of its scenario's.
double predict_with(const CalibrationPoint& point, const Cluster& cluster, const Backend& backend);

// Throws std::invalid_argument if there are no points, or if their scenarios describe different
// networks (NIC, transport, fabric kind, nodes' GPUs, PS placement must agree).
NetworkFit fit_network(const std::vector<CalibrationPoint>& points, const Backend& backend,
                       const LmOptions& options = {});

}  // namespace scalecast::calibration
