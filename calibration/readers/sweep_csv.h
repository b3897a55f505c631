// Reads the CSV `scalecast execute --sweep` writes: one measured collective per size, on one rank
// per host, through the simulator's expansion (its algorithm) or the library's own collective.
#pragma once

#include <string>
#include <vector>

#include "calibration/collective_sample.h"

namespace scalecast::calibration {

// The columns that identify the format.
bool is_sweep_csv_header(const std::string& first_line);
// Throws an InputError naming the file, line and column of anything it cannot use.
std::vector<CollectiveSample> read_sweep_csv(const std::string& path);

}  // namespace scalecast::calibration
