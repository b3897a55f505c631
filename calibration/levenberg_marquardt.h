// Bounded Levenberg-Marquardt least squares with a forward-difference Jacobian (Eigen): minimizes
// 0.5 |r(x)|^2 over a box, holding at a bound any variable the gradient pushes outward.
#pragma once

#include <Eigen/Dense>
#include <functional>
#include <string>

namespace scalecast::calibration {

struct LmOptions {
  int max_iterations = 60;
  double difference_step = 1e-4;  // forward-difference step in x
  double cost_tolerance = 1e-9;   // stop when an accepted step lowers the cost by less (relative)
  double step_tolerance = 1e-9;   // stop when a step moves x by less than this (infinity norm)
  double gradient_tolerance = 1e-12;
  double initial_damping = 1e-2;
};

struct LmResult {
  Eigen::VectorXd x;
  Eigen::VectorXd residuals;
  Eigen::MatrixXd jacobian;  // at x
  double cost = 0;           // 0.5 |r|^2 at x
  int iterations = 0;
  int evaluations = 0;      // calls of the residual function
  std::string stop_reason;  // why it stopped, in words
};

using ResidualFunction = std::function<Eigen::VectorXd(const Eigen::VectorXd& x)>;

// Starts from x0 clamped into [lower, upper]. Throws std::logic_error (a bug of the caller) for
// bounds that do not match x0 or are empty.
LmResult levenberg_marquardt(const ResidualFunction& residuals, const Eigen::VectorXd& x0,
                             const Eigen::VectorXd& lower, const Eigen::VectorXd& upper,
                             const LmOptions& options = {});

}  // namespace scalecast::calibration
