// Sweep axes from their command-line form, and the cartesian product of their values as scenario
// overrides, checked before anything runs.
#include "sim/io/sweep.h"

#include <set>

#include "sim/io/input_error.h"

namespace scalecast {

SweepAxis parse_sweep_axis(const std::string& text, const std::string& origin) {
  const auto equals = text.find('=');
  if (equals == std::string::npos || equals == 0)
    throw InputError(origin + ": expected key.path=value1,value2,..., got '" + text + "'");
  SweepAxis axis;
  axis.key = text.substr(0, equals);
  axis.origin = origin;
  std::set<std::string> seen;
  std::string rest = text.substr(equals + 1);
  for (std::size_t start = 0;;) {
    const auto comma = rest.find(',', start);
    std::string value = rest.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    if (value.empty())
      throw InputError(origin + " " + axis.key + ": expected a value between commas, got '" + rest + "'");
    if (!seen.insert(value).second)
      throw InputError(origin + " " + axis.key + ": expected each value once, got '" + value + "' twice");
    axis.values.push_back(std::move(value));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return axis;
}

std::vector<std::vector<ScenarioOverride>> sweep_combinations(const std::vector<SweepAxis>& axes,
                                                              std::size_t max_combinations) {
  std::set<std::string> keys;
  std::size_t count = 1;
  for (const SweepAxis& a : axes) {
    if (!keys.insert(a.key).second)
      throw InputError(a.origin + " " + a.key + ": expected each key swept once, got it twice");
    if (a.values.empty()) throw InputError(a.origin + " " + a.key + ": expected at least one value, got none");
    if (count > max_combinations / a.values.size())
      throw InputError(a.origin + ": expected at most " + std::to_string(max_combinations) +
                       " combinations, got more with " + a.key);
    count *= a.values.size();
  }
  std::vector<std::vector<ScenarioOverride>> out;
  out.reserve(count);
  std::vector<std::size_t> index(axes.size(), 0);
  for (std::size_t n = 0; n < count; ++n) {
    std::vector<ScenarioOverride> combination;
    for (std::size_t a = 0; a < axes.size(); ++a)
      combination.push_back({axes[a].key + "=" + axes[a].values[index[a]], axes[a].origin});
    out.push_back(std::move(combination));
    for (std::size_t a = axes.size(); a-- > 0;) {  // the last axis varies fastest
      if (++index[a] < axes[a].values.size()) break;
      index[a] = 0;
    }
  }
  return out;
}

}  // namespace scalecast
