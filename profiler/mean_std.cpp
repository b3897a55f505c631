// Mean and sample standard deviation over the measured iterations (n - 1 in the variance, so
// one iteration has none).
#include "profiler/mean_std.h"

#include <cmath>

namespace scalecast::profiler {

MeanStd mean_std(const std::vector<double>& values) {
  MeanStd out;
  if (values.empty()) return out;
  for (const double v : values) out.mean += v;
  out.mean /= static_cast<double>(values.size());
  if (values.size() < 2) return out;
  double sum_sq = 0;
  for (const double v : values) sum_sq += (v - out.mean) * (v - out.mean);
  out.std = std::sqrt(sum_sq / static_cast<double>(values.size() - 1));
  return out;
}

}  // namespace scalecast::profiler
