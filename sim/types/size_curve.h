// The share of its bulk rate a transfer reaches as a function of its size (TCP windows and slow
// start, protocol switches), as SimGrid SMPI's calibrated bandwidth factors describe networks.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace scalecast {

class SizeCurve {
 public:
  SizeCurve() = default;
  // Anchors (bytes, factor), bytes positive and distinct, factors in (0, 1]. Between anchors the
  // factor is linear in log(bytes); below the first and above the last it stays flat. No anchors:
  // 1 everywhere. Throws an InputError for anchors that break those rules.
  explicit SizeCurve(std::vector<std::pair<double, double>> anchors);

  double at(double bytes) const;
  bool empty() const { return anchors_.empty(); }
  const std::vector<std::pair<double, double>>& anchors() const { return anchors_; }

 private:
  std::vector<std::pair<double, double>> anchors_;  // by size
};

}  // namespace scalecast
