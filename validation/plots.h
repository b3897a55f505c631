// Plots of a validation run through gnuplot: per (model, network) scaling curves, one line per
// method with the measurements as points with error bars, and predicted-vs-measured scatters.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "validation/runner.h"

namespace scalecast::validation {

struct PlotOutcome {
  std::vector<std::string> images;  // PNG file names (in the report folder) that were drawn
  std::string problem;              // empty when gnuplot drew every image
};

// Writes the data files and plots.gp into `dir`, then runs gnuplot there if it is installed.
PlotOutcome write_plots(const ValidationResult& v, const std::string& dir, std::ostream& progress);

}  // namespace scalecast::validation
