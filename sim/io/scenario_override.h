// A value set on top of a scenario file from outside it (--set, --sweep, a calibrated cluster
// file, a search space's option), with where it was set so that an error in it can say so.
#pragma once

#include <string>
#include <vector>

namespace scalecast {

// A "key.path=value" set on top of a scenario file, and where it comes from ("--set", or a
// calibrated cluster file): an error in its value names that origin instead of a line.
struct ScenarioOverride {
  std::string assignment;
  std::string origin = "--set";
};
// Overrides in the order they apply (later ones win), kept apart from a list of --set strings.
struct ScenarioOverrides {
  std::vector<ScenarioOverride> sets;
};

}  // namespace scalecast
