// Levenberg-Marquardt (Marquardt's diagonal scaling, Nocedal & Wright ch. 10.3) with box bounds
// by an active set: variables at a bound whose gradient points out of the box are held there.
#include "calibration/levenberg_marquardt.h"

#include <algorithm>
#include <stdexcept>

namespace scalecast::calibration {
namespace {

class Problem {
 public:
  Problem(const ResidualFunction& f, const Eigen::VectorXd& lower, const Eigen::VectorXd& upper,
          const LmOptions& o)
      : f_(f), lower_(lower), upper_(upper), o_(o) {}

  Eigen::VectorXd eval(const Eigen::VectorXd& x) {
    ++evaluations_;
    return f_(x);
  }

  // Forward differences, stepping inward at an upper bound.
  Eigen::MatrixXd jacobian(const Eigen::VectorXd& x, const Eigen::VectorXd& r) {
    Eigen::MatrixXd j(r.size(), x.size());
    for (Eigen::Index i = 0; i < x.size(); ++i) {
      Eigen::VectorXd xh = x;
      const double h =
          x[i] + o_.difference_step <= upper_[i] ? o_.difference_step : -o_.difference_step;
      xh[i] += h;
      j.col(i) = (eval(xh) - r) / h;
    }
    return j;
  }

  Eigen::VectorXd clamp(const Eigen::VectorXd& x) const {
    return x.cwiseMax(lower_).cwiseMin(upper_);
  }

  // Variables free to move: not at a bound that the descent direction -g points past.
  std::vector<Eigen::Index> free_set(const Eigen::VectorXd& x, const Eigen::VectorXd& g) const {
    std::vector<Eigen::Index> free;
    for (Eigen::Index i = 0; i < x.size(); ++i) {
      const bool held = (x[i] <= lower_[i] && g[i] > 0) || (x[i] >= upper_[i] && g[i] < 0);
      if (!held) free.push_back(i);
    }
    return free;
  }

  int evaluations() const { return evaluations_; }

 private:
  const ResidualFunction& f_;
  Eigen::VectorXd lower_, upper_;
  LmOptions o_;
  int evaluations_ = 0;
};

// Solves (A + damping * D) dx = -g over the free variables; D is diag(A) with a floor so that a
// variable the residuals do not depend on gets no step.
Eigen::VectorXd damped_step(const Eigen::MatrixXd& a, const Eigen::VectorXd& g,
                            const std::vector<Eigen::Index>& free, double damping) {
  const auto n = static_cast<Eigen::Index>(free.size());
  Eigen::MatrixXd af(n, n);
  Eigen::VectorXd gf(n);
  double max_diag = 0;
  for (Eigen::Index i = 0; i < n; ++i) max_diag = std::max(max_diag, a(free[i], free[i]));
  const double floor = std::max(max_diag * 1e-12, 1e-300);
  for (Eigen::Index i = 0; i < n; ++i) {
    gf[i] = g[free[i]];
    for (Eigen::Index k = 0; k < n; ++k) af(i, k) = a(free[i], free[k]);
    af(i, i) += damping * std::max(a(free[i], free[i]), floor);
  }
  const Eigen::VectorXd dxf = af.ldlt().solve(-gf);
  Eigen::VectorXd dx = Eigen::VectorXd::Zero(g.size());
  for (Eigen::Index i = 0; i < n; ++i) dx[free[i]] = dxf[i];
  return dx;
}

}  // namespace

LmResult levenberg_marquardt(const ResidualFunction& residuals, const Eigen::VectorXd& x0,
                             const Eigen::VectorXd& lower, const Eigen::VectorXd& upper,
                             const LmOptions& options) {
  if (lower.size() != x0.size() || upper.size() != x0.size())
    throw std::logic_error("levenberg_marquardt: bounds must have as many entries as x0");
  if ((lower.array() > upper.array()).any())
    throw std::logic_error("levenberg_marquardt: a lower bound lies above its upper bound");
  Problem p(residuals, lower, upper, options);
  LmResult out;
  out.x = p.clamp(x0);
  out.residuals = p.eval(out.x);
  out.cost = 0.5 * out.residuals.squaredNorm();
  double damping = options.initial_damping;
  out.stop_reason = "reached the iteration limit";
  for (out.iterations = 0; out.iterations < options.max_iterations;) {
    ++out.iterations;
    out.jacobian = p.jacobian(out.x, out.residuals);
    const Eigen::MatrixXd a = out.jacobian.transpose() * out.jacobian;
    const Eigen::VectorXd g = out.jacobian.transpose() * out.residuals;
    const auto free = p.free_set(out.x, g);
    double free_gradient = 0;
    for (auto i : free) free_gradient = std::max(free_gradient, std::abs(g[i]));
    if (free.empty() || free_gradient < options.gradient_tolerance) {
      out.stop_reason = "gradient vanished";
      break;
    }
    bool accepted = false, small_step = false;
    while (!accepted && damping < 1e12) {
      const Eigen::VectorXd trial = p.clamp(out.x + damped_step(a, g, free, damping));
      if ((trial - out.x).lpNorm<Eigen::Infinity>() < options.step_tolerance) {
        small_step = true;
        break;
      }
      const Eigen::VectorXd r = p.eval(trial);
      const double cost = 0.5 * r.squaredNorm();
      if (cost < out.cost) {
        const double gain = (out.cost - cost) / std::max(out.cost, 1e-300);
        out.x = trial;
        out.residuals = r;
        out.cost = cost;
        damping = std::max(damping / 3, 1e-12);
        accepted = true;
        if (gain < options.cost_tolerance) small_step = true;
      } else {
        damping *= 4;
      }
    }
    if (small_step) {
      out.stop_reason = "converged (cost and step stopped changing)";
      break;
    }
    if (!accepted) {
      out.stop_reason = "no damped step lowers the cost";
      break;
    }
  }
  out.jacobian = p.jacobian(out.x, out.residuals);
  out.evaluations = p.evaluations();
  return out;
}

}  // namespace scalecast::calibration
