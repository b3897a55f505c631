// Loading a scenario under a calibrated cluster file and --set overrides, in that order (a --set
// wins over the file), and listing what they set.
#include "cli/scenario_input.h"

namespace scalecast::cli {

void add_scenario_options(po::options_description& opts, std::vector<std::string>& sets, std::string& cluster_file) {
  opts.add_options()
      ("set,s", po::value(&sets)->composing(), "override a scenario value: key.path=value")
      ("cluster", po::value(&cluster_file), "a calibrated cluster file (scalecast calibrate -o): its values "
                                            "override the scenario's");
}

ScenarioInput load_scenario_input(const std::string& path, const std::vector<std::string>& sets,
                                  const std::string& cluster_file) {
  ScenarioInput in;
  ScenarioOverrides overrides;
  if (!cluster_file.empty()) {
    in.calibrated = calibration::read_calibrated_cluster(cluster_file);
    overrides = in.calibrated->overrides;
  }
  for (const auto& s : sets) overrides.sets.push_back({s, "--set"});
  in.scenario = load_scenario(path, overrides);
  for (const auto& s : overrides.sets) in.overrides += (in.overrides.empty() ? "" : "; ") + s.assignment;
  return in;
}

}  // namespace scalecast::cli
