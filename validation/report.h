// The --report folder of `scalecast validate`: report.md, rows.csv, and the plots with their
// data files and gnuplot script. Text files are written atomically (FILE.tmp, then renamed).
#pragma once

#include <ostream>
#include <string>

#include "validation/ablation.h"
#include "validation/runner.h"

namespace scalecast::validation {

// Creates `dir` if needed. Progress lines go to `progress`. With an ablation, report.md gets its
// table and ablation.csv its figures.
void write_report(const ValidationResult& v, const std::string& dir, std::ostream& progress,
                  const Ablation* ablation = nullptr);

}  // namespace scalecast::validation
