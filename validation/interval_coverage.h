// How often the prediction interval holds the measurement: per table and mode, the share of
// judged rows whose measured throughput lies inside the interval predict --interval would give.
#pragma once

#include <string>
#include <vector>

#include "sim/prediction/prediction_interval.h"
#include "validation/runner.h"

namespace scalecast::validation {

inline constexpr double kCoverageLevelPct = 90;

// A row's spread: zero-shot, the documented defaults; calibrated, its network fit's residual
// spread (sum of squares over fitted rows less fitted parameters) with the schedule model's.
Uncertainty row_uncertainty(const ValidationResult& v, Mode mode, std::size_t row);

struct CoverageLine {
  std::string table;
  Mode mode = Mode::zero_shot;
  int rows = 0, inside = 0;
  double share() const { return rows ? static_cast<double>(inside) / rows : 0; }
};
// Zero-shot over every predicted row, calibrated over the held-out rows (the modes run).
std::vector<CoverageLine> interval_coverage(const ValidationResult& v, double level_pct);

}  // namespace scalecast::validation
