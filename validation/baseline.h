// The regression gate: validation/baseline.csv records each table's MAPE per mode and backend;
// a check fails when a table's MAPE worsens by more than the allowed points or rows go missing.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "validation/runner.h"

namespace scalecast::validation {

struct BaselineEntry {
  std::string table, mode, backend;
  std::size_t rows = 0;  // predicted rows the figure was taken over
  double mape_pct = 0;
  int line = 0;
};

std::vector<BaselineEntry> read_baseline(const std::string& path);
// The gate figures of this run (zero-shot on all rows, calibrated on held-out rows).
void write_baseline(std::ostream& out, const ValidationResult& v);

// Throws an InputError unless the baseline has a figure for this backend and one of the modes, so a
// check that could compare nothing fails before the run.
void require_figures(const std::vector<BaselineEntry>& baseline, const std::string& backend,
                     const std::vector<Mode>& modes, const std::string& path);

struct BaselineCheck {
  bool passed = true;
  std::vector<std::string> lines;  // one per compared figure, with recorded, current and limit
};

// Compares every entry of this run's backend and modes. Fails a figure whose MAPE exceeds the
// recorded one by more than `allowed_points`, or that is taken over fewer rows than recorded.
// Throws as require_figures does.
BaselineCheck check_baseline(const std::vector<BaselineEntry>& baseline, const ValidationResult& v,
                             const std::string& path, double allowed_points = 1.0);

}  // namespace scalecast::validation
