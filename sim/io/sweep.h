// A sweep over scenario values: key paths (as --set names them), each with the values to try,
// expanded into every combination, as predict --sweep and recommend's search space need them.
#pragma once

#include <string>
#include <vector>

#include "sim/io/scenario_override.h"

namespace scalecast {

struct SweepAxis {
  std::string key;                  // scenario key path, e.g. cluster.network.bandwidth
  std::vector<std::string> values;  // as written after '=' in --set
  std::string origin = "--sweep";   // where the axis was declared, for errors
};

// Reads "key.path=v1,v2,..." (a value may not hold a comma); throws InputError naming `origin`
// for a missing key or '=', an empty value, or a value given twice.
SweepAxis parse_sweep_axis(const std::string& text, const std::string& origin = "--sweep");

// Every combination of one value per axis, the first axis varying slowest; one combination (of
// nothing) for no axes. Throws InputError when two axes set the same key, or when there would be
// more than `max_combinations`.
std::vector<std::vector<ScenarioOverride>> sweep_combinations(const std::vector<SweepAxis>& axes,
                                                              std::size_t max_combinations = 1000000);

}  // namespace scalecast
