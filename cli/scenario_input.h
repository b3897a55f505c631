// How the commands that read a scenario take it: the file, a calibrated cluster file whose values
// override the scenario's (--cluster), then --set overrides; and what was set from outside the
// file, for headers and for the CSV and JSON rows.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "calibration/calibrated_cluster.h"
#include "cli/common.h"
#include "sim/scenario/scenario.h"

namespace scalecast::cli {

struct ScenarioInput {
  Scenario scenario;
  std::optional<calibration::CalibratedCluster> calibrated;
  std::string overrides;  // "key=value; ..." from --cluster and --set, "" when none
  ScenarioOverrides applied;  // the same, as applied
};

// The scenario of `input` with `more` overrides after its own (a sweep's combination), and the
// settings of both as (key path, value) pairs for the rows.
struct SweptScenario {
  Scenario scenario;
  std::vector<std::pair<std::string, std::string>> settings;
};
SweptScenario with_overrides(const ScenarioInput& input, const std::vector<ScenarioOverride>& more);
// (key path, value) of "key.path=value".
std::pair<std::string, std::string> split_assignment(const std::string& assignment);

// The --set, --cluster and --allow-other-cluster options, for a command's options.
void add_scenario_options(po::options_description& opts, std::vector<std::string>& sets, std::string& cluster_file,
                          bool& allow_other_cluster);

// Refuses a cluster file calibrated on other hardware than the scenario's unless
// `allow_other_cluster` (calibration::check_same_hardware).
ScenarioInput load_scenario_input(const std::string& path, const std::vector<std::string>& sets,
                                  const std::string& cluster_file, bool allow_other_cluster);

}  // namespace scalecast::cli
