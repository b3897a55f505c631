// Loading a scenario under a calibrated cluster file and --set overrides, in that order (a --set
// wins over the file), and listing what they set.
#include "cli/scenario_input.h"

#include <algorithm>

namespace scalecast::cli {

void add_scenario_options(po::options_description& opts, std::vector<std::string>& sets, std::string& cluster_file,
                          bool& allow_other_cluster) {
  opts.add_options()
      ("set,s", po::value(&sets)->composing(), "override a scenario value: key.path=value")
      ("cluster", po::value(&cluster_file), "a calibrated cluster file (scalecast calibrate -o): its values "
                                            "override the scenario's")
      ("allow-other-cluster", po::bool_switch(&allow_other_cluster),
       "apply --cluster although it was calibrated on other hardware (GPU, fabric, transport, NIC, GPUs a node)");
}

namespace {

ScenarioOverrides sets_only(const std::vector<std::string>& sets) {
  ScenarioOverrides o;
  for (const auto& s : sets) o.sets.push_back({s, "--set"});
  return o;
}

}  // namespace

ScenarioInput load_scenario_input(const std::string& path, const std::vector<std::string>& sets,
                                  const std::string& cluster_file, bool allow_other_cluster) {
  ScenarioInput in;
  ScenarioOverrides overrides;
  if (!cluster_file.empty()) {
    in.calibrated = calibration::read_calibrated_cluster(cluster_file);
    overrides = in.calibrated->overrides;
  }
  for (const auto& s : sets) overrides.sets.push_back({s, "--set"});
  in.scenario = load_scenario(path, overrides);
  if (in.calibrated) calibration::check_same_hardware(*in.calibrated, load_scenario(path, sets_only(sets)), allow_other_cluster);
  for (const auto& s : overrides.sets) in.overrides += (in.overrides.empty() ? "" : "; ") + s.assignment;
  in.applied = overrides;
  return in;
}

std::pair<std::string, std::string> split_assignment(const std::string& assignment) {
  const auto equals = assignment.find('=');
  if (equals == std::string::npos) return {assignment, ""};
  return {assignment.substr(0, equals), assignment.substr(equals + 1)};
}

SweptScenario with_overrides(const ScenarioInput& in, const std::vector<ScenarioOverride>& more) {
  SweptScenario out;
  ScenarioOverrides all = in.applied;
  all.sets.insert(all.sets.end(), more.begin(), more.end());
  out.scenario = more.empty() ? in.scenario : load_scenario(in.scenario.path, all);
  for (const auto& s : all.sets) {
    auto kv = split_assignment(s.assignment);
    // A later value of a key replaces the earlier one, as when the overrides were applied.
    auto same = std::find_if(out.settings.begin(), out.settings.end(), [&](const auto& e) { return e.first == kv.first; });
    if (same != out.settings.end()) same->second = kv.second;
    else out.settings.push_back(std::move(kv));
  }
  return out;
}

}  // namespace scalecast::cli
