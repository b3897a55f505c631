// A measured nccl-tests run against its prediction as `scalecast collective --compare` prints it:
// as a sweep with measured times (for the CSV and JSON writers), or as a table with the error by regime.
#pragma once

#include <ostream>
#include <string>

#include "sim/report/collective_sweep.h"
#include "validation/collective_comparison.h"

namespace scalecast::validation {

// The compared sizes as a sweep of `type` elements, each with its measured time.
CollectiveSweep comparison_sweep(const CollectiveComparison& comparison, const std::string& scenario,
                                 collectives::CollectiveOp op, const std::string& type);

// Measured against predicted size by size (time, error, algorithm, what set it), then the mean
// |error| in the latency and bandwidth regimes and the signed error over training's sizes.
void write_comparison_table(std::ostream& out, const CollectiveComparison& comparison, const std::string& measured_path,
                            const std::string& scenario);

}  // namespace scalecast::validation
