// The network fit: every point shares one set of constants, applied to its own scenario's
// cluster; LM works on log(constant) so steps are relative and bounds stay positive.
#include "calibration/network_fit.h"

#include <cmath>
#include <stdexcept>

#include "sim/prediction.h"

namespace scalecast::calibration {
namespace {

void check_same_network(const Cluster& a, const Cluster& b, const std::string& name) {
  const bool same = a.nic_bandwidth == b.nic_bandwidth && a.transport == b.transport &&
                    a.fabric.kind == b.fabric.kind && a.gpus_per_node == b.gpus_per_node &&
                    a.ps.placement == b.ps.placement && a.topology.kind == b.topology.kind;
  if (!same)
    throw std::invalid_argument("calibration points must describe one network; scenario '" + name +
                                "' differs from the first point's cluster");
}

Constants from_log(const Eigen::VectorXd& x) {
  Constants v{};
  for (std::size_t i = 0; i < kConstantCount; ++i) v[i] = std::exp(x[static_cast<Eigen::Index>(i)]);
  return v;
}

Eigen::VectorXd to_log(const Constants& v) {
  Eigen::VectorXd x(static_cast<Eigen::Index>(kConstantCount));
  for (std::size_t i = 0; i < kConstantCount; ++i) x[static_cast<Eigen::Index>(i)] = std::log(v[i]);
  return x;
}

}  // namespace

double rms(const std::vector<double>& relative_errors) {
  if (relative_errors.empty()) return 0;
  double sum = 0;
  for (double e : relative_errors) sum += e * e;
  return std::sqrt(sum / static_cast<double>(relative_errors.size()));
}

double predict_with(const CalibrationPoint& point, const Cluster& cluster, const Backend& backend) {
  Scenario s = *point.scenario;
  s.cluster = cluster;
  return predict(s, *point.workload, point.method, point.gpus, backend).row.throughput;
}

NetworkFit fit_network(const std::vector<CalibrationPoint>& points, const Backend& backend,
                       const LmOptions& options) {
  if (points.empty()) throw std::invalid_argument("calibration needs at least one measured run");
  std::vector<Cluster> clusters;
  for (const auto& p : points) {
    clusters.push_back(fitting_cluster(p.scenario->cluster));
    check_same_network(clusters.front(), clusters.back(), p.scenario->name);
  }
  NetworkFit fit;
  fit.start = read_constants(clusters.front());
  fit.bounds = physical_bounds(clusters.front());
  auto errors = [&](const Constants& v) {
    Eigen::VectorXd r(static_cast<Eigen::Index>(points.size()));
    for (std::size_t i = 0; i < points.size(); ++i) {
      const Cluster c = with_constants(points[i].scenario->cluster, v);
      r[static_cast<Eigen::Index>(i)] =
          predict_with(points[i], c, backend) / points[i].measured - 1;
    }
    return r;
  };
  const LmResult lm = levenberg_marquardt(
      [&](const Eigen::VectorXd& x) { return errors(from_log(x)); }, to_log(fit.start),
      to_log(fit.bounds.lower), to_log(fit.bounds.upper), options);
  fit.fitted = from_log(lm.x);
  for (std::size_t i = 0; i < kConstantCount; ++i) {
    const auto col = static_cast<Eigen::Index>(i);
    fit.constrained[i] = lm.jacobian.col(col).lpNorm<Eigen::Infinity>() > 1e-9;
    fit.at_bound[i] = std::abs(lm.x[col] - std::log(fit.bounds.lower[i])) < 1e-9 ||
                      std::abs(lm.x[col] - std::log(fit.bounds.upper[i])) < 1e-9;
  }
  const Eigen::VectorXd start_r = errors(fit.start);
  fit.start_errors.assign(start_r.begin(), start_r.end());
  fit.fitted_errors.assign(lm.residuals.begin(), lm.residuals.end());
  fit.cluster = with_constants(points.front().scenario->cluster, fit.fitted);
  fit.iterations = lm.iterations;
  fit.evaluations = lm.evaluations;
  fit.stop_reason = lm.stop_reason;
  return fit;
}

}  // namespace scalecast::calibration
