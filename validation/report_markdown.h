// report.md of a validation run: summary, fitted constants, errors per group, worst rows,
// ranking agreement, rows the model cannot express, every row, and the plots.
#pragma once

#include <ostream>

#include "validation/plots.h"
#include "validation/runner.h"

namespace scalecast::validation {

void write_report_markdown(std::ostream& out, const ValidationResult& v, const PlotOutcome& plots);

}  // namespace scalecast::validation
