// The fit: LM over the parameters still free, then the covariance sigma^2 (J'J)^-1 at the
// solution; a parameter without effect, with a log standard error above 0.5, or whose effect is
// within the residual scatter goes back to its default and the rest are fitted again. Then what
// carries over to held-out folds, selected by cross-validation.
#include "calibration/transport_fit.h"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "calibration/levenberg_marquardt.h"

namespace scalecast::calibration {
namespace {

// Above this standard error of log(value) the measurements do not pin a parameter down: its
// 95% interval would span more than a factor of 7.
constexpr double kMaxLogError = 0.5;

Eigen::VectorXd log_residuals(const std::vector<FitSample>& samples, const Cluster& c) {
  Eigen::VectorXd r(static_cast<Eigen::Index>(samples.size()));
  for (size_t i = 0; i < samples.size(); ++i) {
    const double p = samples[i].predict_s(c);
    r[static_cast<Eigen::Index>(i)] = std::log(std::max(p, 1e-300) / samples[i].measured_s);
  }
  return r;
}

}  // namespace

std::string to_string(FitStatus s) {
  switch (s) {
    case FitStatus::fitted: return "fitted";
    case FitStatus::at_bound: return "at its physical bound (the measurements would take it further): held at the default";
    case FitStatus::not_identified: return "not identified by the measurements: held at the default";
    case FitStatus::no_effect: return "no effect on the measurements: held at the default";
    case FitStatus::not_carried_over:
      return "improves only the measurements it was fitted to (cross-validation): held at the default";
  }
  return "fitted";
}

TransportFit fit_transport(const std::vector<FitSample>& samples, const Cluster& base,
                           const std::vector<Parameter>& parameters) {
  if (samples.empty()) throw std::logic_error("calibration needs at least one measurement");
  TransportFit out;
  out.parameters = parameters;
  out.cluster = base;
  out.results.resize(parameters.size());
  for (size_t i = 0; i < parameters.size(); ++i) {
    const double start = std::clamp(parameters[i].get(base), parameters[i].lower, parameters[i].upper);
    out.results[i].start = out.results[i].value = start;
    parameters[i].set(out.cluster, start);
  }
  out.start_residuals = [&] {
    const Eigen::VectorXd r = log_residuals(samples, out.cluster);
    return std::vector<double>(r.data(), r.data() + r.size());
  }();
  std::vector<size_t> free(parameters.size());
  for (size_t i = 0; i < free.size(); ++i) free[i] = i;
  while (!free.empty()) {
    const auto k = static_cast<Eigen::Index>(free.size());
    Eigen::VectorXd x0(k), lower(k), upper(k);
    for (Eigen::Index j = 0; j < k; ++j) {
      const Parameter& p = parameters[free[j]];
      x0[j] = std::log(out.results[free[j]].start);
      lower[j] = std::log(p.lower);
      upper[j] = std::log(p.upper);
    }
    const Cluster fixed = out.cluster;
    auto apply = [&](const Eigen::VectorXd& x) {
      Cluster c = fixed;
      for (Eigen::Index j = 0; j < k; ++j) parameters[free[j]].set(c, std::exp(x[j]));
      return c;
    };
    const LmResult lm = levenberg_marquardt([&](const Eigen::VectorXd& x) { return log_residuals(samples, apply(x)); },
                                            x0, lower, upper);
    out.evaluations += lm.evaluations;
    // Covariance of log(parameters) at the solution, sigma^2 (J'J)^-1, inverted through the SVD
    // with singular values floored at 1e-8 of the largest, so that a direction the measurements
    // leave flat shows as a huge variance instead of vanishing in a pseudo-inverse; sigma is at
    // least 0.1%, the precision of a timed measurement. V is the full k x k basis: with fewer
    // measurements than parameters the thin one has fewer columns than the covariance needs,
    // and the directions it leaves out are exactly the unidentified ones.
    const auto n = lm.residuals.size();
    const double sigma2 =
        std::max(1e-6, lm.residuals.squaredNorm() / static_cast<double>(std::max<Eigen::Index>(1, n - k)));
    const Eigen::JacobiSVD<Eigen::MatrixXd> svd(lm.jacobian, Eigen::ComputeFullV);
    const Eigen::VectorXd singular = svd.singularValues();
    const double floor = std::max(1e-8 * (singular.size() > 0 ? singular[0] : 0.0), 1e-300);
    Eigen::VectorXd inverse_square(k);
    for (Eigen::Index j = 0; j < k; ++j) {
      const double value = j < singular.size() ? std::max(singular[j], floor) : floor;
      inverse_square[j] = 1 / (value * value);
    }
    const Eigen::MatrixXd& v = svd.matrixV();
    const Eigen::MatrixXd cov = sigma2 * v * inverse_square.asDiagonal() * v.transpose();
    // A parameter is identified when its standard error is small and its effect on some
    // measurement exceeds the fit's residual scatter: residuals and parameters are both logs, so
    // a Jacobian entry is the share of that measurement's time the parameter drives. A
    // parameter whose effect on every measurement is within the scatter (a per-step latency under
    // one large message) could only be moved by the model's own error; held at its default.
    const double scatter = std::sqrt(sigma2);
    size_t worst = free.size();
    double worst_weakness = 1;
    for (Eigen::Index j = 0; j < k; ++j) {
      ParameterFit& r = out.results[free[j]];
      const double effect = lm.jacobian.col(j).norm();
      const double largest_effect = lm.jacobian.col(j).cwiseAbs().maxCoeff();
      const double error = std::sqrt(std::max(0.0, cov(j, j)));
      double weakness = std::max(error / kMaxLogError, scatter / std::max(largest_effect, 1e-300));
      // At a bound and pushed outward by the residuals: the measurements want it out of range.
      const double pull = lm.jacobian.col(j).dot(lm.residuals);
      const bool at_bound = (lm.x[j] <= lower[j] + 1e-9 && pull > 1e-9) || (lm.x[j] >= upper[j] - 1e-9 && pull < -1e-9);
      r.value = std::exp(lm.x[j]);
      r.low = std::exp(lm.x[j] - 1.96 * error);
      r.high = std::exp(lm.x[j] + 1.96 * error);
      r.status = FitStatus::fitted;
      if (effect < 1e-6) {
        r.status = FitStatus::no_effect;
        weakness = std::numeric_limits<double>::infinity();
      } else if (largest_effect < scatter) {
        r.status = FitStatus::not_identified;  // a bound it reached would be the noise's
      } else if (at_bound) {
        // A value past its physical range: something else is wrong with the model or the
        // measurements; this one must not absorb it.
        r.status = FitStatus::at_bound;
        weakness = std::numeric_limits<double>::infinity();
      }
      if (weakness > worst_weakness) {
        worst = static_cast<size_t>(j);
        worst_weakness = weakness;
      }
    }
    out.cluster = apply(lm.x);
    if (worst == free.size()) break;
    // Hold the least identified parameter at its default and fit the rest again.
    ParameterFit& r = out.results[free[worst]];
    if (r.status == FitStatus::fitted) r.status = FitStatus::not_identified;
    r.value = r.low = r.high = r.start;
    parameters[free[worst]].set(out.cluster, r.start);
    free.erase(free.begin() + static_cast<std::ptrdiff_t>(worst));
  }
  const Eigen::VectorXd r = log_residuals(samples, out.cluster);
  out.fitted_residuals.assign(r.data(), r.data() + r.size());
  return out;
}

Cluster apply_fit(const TransportFit& fit, Cluster target) {
  for (size_t i = 0; i < fit.parameters.size(); ++i)
    if (fit.results[i].status == FitStatus::fitted) fit.parameters[i].set(target, fit.results[i].value);
  return target;
}

Cluster take_parameters(const std::vector<Parameter>& parameters, const Cluster& from, Cluster target) {
  for (const Parameter& p : parameters) p.set(target, p.get(from));
  return target;
}

Folds make_folds(const std::vector<FitSample>& samples, int folds) {
  std::vector<std::string> workloads;
  bool named = true;
  for (const auto& s : samples) {
    named = named && !s.workload.empty();
    if (std::find(workloads.begin(), workloads.end(), s.workload) == workloads.end()) workloads.push_back(s.workload);
  }
  Folds out;
  out.by_workload = named && workloads.size() >= 3;
  out.count = out.by_workload ? static_cast<int>(workloads.size())
                              : std::clamp(folds, 2, std::max<int>(2, static_cast<int>(samples.size())));
  for (size_t i = 0; i < samples.size(); ++i) {
    const auto w = std::find(workloads.begin(), workloads.end(), samples[i].workload) - workloads.begin();
    out.of.push_back(out.by_workload ? static_cast<int>(w) : static_cast<int>(i % static_cast<size_t>(out.count)));
  }
  return out;
}

Folds folds_by_group(const std::vector<std::string>& group) {
  Folds out;
  std::vector<std::string> seen;
  for (const auto& g : group) {
    auto it = std::find(seen.begin(), seen.end(), g);
    if (it == seen.end()) it = seen.insert(seen.end(), g);
    out.of.push_back(static_cast<int>(it - seen.begin()));
  }
  out.count = static_cast<int>(seen.size());
  return out;
}

Folds folds_by_size(const std::vector<double>& bytes) {
  std::vector<double> sorted = bytes;
  std::sort(sorted.begin(), sorted.end());
  const double median = sorted.empty() ? 0 : sorted[sorted.size() / 2];
  Folds out;
  out.count = 2;
  for (double b : bytes) out.of.push_back(b < median ? 0 : 1);
  return out;
}

namespace {

double log_ratio(const FitSample& s, const Cluster& c) {
  return std::log(std::max(s.predict_s(c), 1e-300) / s.measured_s);
}

// Each sample predicted by `fit` (from a training set to a cluster) run on the other folds.
template <typename Fit>
std::vector<double> held_out(const std::vector<FitSample>& samples, const Folds& folds, const Cluster& base,
                             Fit&& fit) {
  std::vector<double> out(samples.size(), 0.0);
  for (int f = 0; f < folds.count; ++f) {
    std::vector<FitSample> train;
    for (size_t i = 0; i < samples.size(); ++i)
      if (folds.of[i] != f) train.push_back(samples[i]);
    if (train.size() == samples.size()) continue;
    const Cluster fitted = train.empty() ? base : fit(train);
    for (size_t i = 0; i < samples.size(); ++i)
      if (folds.of[i] == f) out[i] = log_ratio(samples[i], fitted);
  }
  return out;
}

}  // namespace

CarriedOverFit fit_carried_over(const std::vector<FitSample>& samples, const Cluster& base,
                                const std::vector<Parameter>& parameters, const Folds& folds) {
  CarriedOverFit out;
  out.fit = fit_transport(samples, base, parameters);
  out.cv.folds = folds.count;
  out.cv.by_workload = folds.by_workload;
  for (const auto& s : samples) out.cv.before.push_back(log_ratio(s, base));
  std::vector<size_t> kept, dropped;
  for (size_t i = 0; i < parameters.size(); ++i)
    if (out.fit.results[i].status == FitStatus::fitted) kept.push_back(i);
  auto subset = [&](const std::vector<size_t>& which) {
    std::vector<Parameter> ps;
    for (size_t i : which) ps.push_back(parameters[i]);
    return ps;
  };
  auto held = [&](const std::vector<size_t>& which) {
    const auto ps = subset(which);
    return held_out(samples, folds, base, [&](const std::vector<FitSample>& train) {
      return ps.empty() ? base : fit_transport(train, base, ps).cluster;
    });
  };
  out.cv.after = held(kept);
  out.full_error_pct = mape(out.cv.after);
  double error = out.full_error_pct;
  while (!kept.empty()) {
    size_t best = kept.size();
    std::vector<double> best_held;
    for (size_t j = 0; j < kept.size(); ++j) {
      std::vector<size_t> without = kept;
      without.erase(without.begin() + static_cast<std::ptrdiff_t>(j));
      auto h = held(without);
      if (const double e = mape(h); e <= error) {
        best = j;
        error = e;
        best_held = std::move(h);
      }
    }
    if (best == kept.size()) break;
    dropped.push_back(kept[best]);
    kept.erase(kept.begin() + static_cast<std::ptrdiff_t>(best));
    out.cv.after = std::move(best_held);
  }
  if (!kept.empty() && mape(out.cv.before) <= error) {
    dropped.insert(dropped.end(), kept.begin(), kept.end());
    kept.clear();
    out.cv.after = out.cv.before;
  }
  if (dropped.empty()) return out;
  const TransportFit refit = fit_transport(samples, base, subset(kept));
  out.fit.cluster = refit.cluster;
  out.fit.fitted_residuals = refit.fitted_residuals;
  out.fit.evaluations += refit.evaluations;
  for (size_t j = 0; j < kept.size(); ++j) out.fit.results[kept[j]] = refit.results[j];
  for (size_t i : dropped) {
    ParameterFit& r = out.fit.results[i];
    r.value = r.low = r.high = r.start;
    r.status = FitStatus::not_carried_over;
  }
  return out;
}

double mape(const std::vector<double>& log_ratios) {
  if (log_ratios.empty()) return 0;
  double sum = 0;
  for (double r : log_ratios) sum += std::abs(std::exp(r) - 1);
  return 100 * sum / static_cast<double>(log_ratios.size());
}

double quantile(std::vector<double> v, double q) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const double at = q * static_cast<double>(v.size() - 1);
  const auto lo = static_cast<size_t>(std::floor(at));
  const size_t hi = std::min(lo + 1, v.size() - 1);
  return v[lo] + (at - static_cast<double>(lo)) * (v[hi] - v[lo]);
}

}  // namespace scalecast::calibration
