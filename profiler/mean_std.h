// Mean and sample standard deviation of per-iteration figures, as the profile CSV reports them:
// shared by the CUPTI attribution and the torch.profiler importer.
#pragma once

#include <vector>

namespace scalecast::profiler {

struct MeanStd {
  double mean = 0;
  double std = 0;
};

// Mean and sample standard deviation (n - 1; 0 for a single value; both 0 for none).
MeanStd mean_std(const std::vector<double>& values);

}  // namespace scalecast::profiler
