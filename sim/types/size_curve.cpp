// Log-linear interpolation of a size curve between its anchors.
#include "sim/types/size_curve.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "sim/io/input_error.h"

namespace scalecast {

SizeCurve::SizeCurve(std::vector<std::pair<double, double>> anchors) : anchors_(std::move(anchors)) {
  std::sort(anchors_.begin(), anchors_.end());
  for (size_t i = 0; i < anchors_.size(); ++i) {
    const auto [bytes, factor] = anchors_[i];
    if (!(bytes > 0) || !std::isfinite(bytes))
      throw InputError("a size curve anchor needs a positive size, not " + std::to_string(bytes));
    if (!(factor > 0 && factor <= 1))
      throw InputError("a size curve factor must be in (0, 1], not " + std::to_string(factor));
    if (i > 0 && anchors_[i - 1].first == bytes)
      throw InputError("two size curve anchors at " + std::to_string(bytes) + " bytes");
  }
}

double SizeCurve::at(double bytes) const {
  if (anchors_.empty()) return 1;
  if (!(bytes > anchors_.front().first)) return anchors_.front().second;
  if (bytes >= anchors_.back().first) return anchors_.back().second;
  const auto upper = std::upper_bound(anchors_.begin(), anchors_.end(), std::make_pair(bytes, 2.0));
  const auto lower = upper - 1;
  const double t = std::log(bytes / lower->first) / std::log(upper->first / lower->first);
  return lower->second + t * (upper->second - lower->second);
}

}  // namespace scalecast
