// Writing the calibration as YAML (deterministic, units on every value) and reading the cluster
// block back as scenario overrides, the size curve as one map.
#include "calibration/calibrated_cluster.h"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <cmath>
#include <map>

#include "sim/input_error.h"

namespace scalecast::calibration {
namespace {


bool writes_value(const ParameterFit& r) { return r.status == FitStatus::fitted; }

// Flattens the cluster block into overrides; a size curve (keys are sizes) stays one map.
void flatten(const YAML::Node& node, const std::string& prefix, const std::string& origin,
             ScenarioOverrides& out, std::vector<std::string>& values) {
  for (const auto& entry : node) {
    const std::string key = entry.first.as<std::string>();
    const std::string path = prefix + "." + key;
    if (entry.second.IsMap() && key != "bandwidth_by_size") {
      flatten(entry.second, path, origin, out, values);
      continue;
    }
    YAML::Emitter e;
    e << YAML::Flow << entry.second;
    out.sets.push_back({path + "=" + e.c_str(), origin});
    values.push_back(path.substr(std::string("cluster.").size()) + " = " + e.c_str());
  }
}

}  // namespace

std::vector<std::pair<std::string, std::string>> hardware_of(const Cluster& c) {
  return {{"gpu", c.gpu},
          {"fabric", c.fabric.kind},
          {"transport", to_string(c.transport)},
          {"nic", c.nic.empty() ? fmt::format("{:g}Gbps", c.nic_bandwidth * 8 / 1e9) : c.nic},
          {"gpus_per_node", std::to_string(c.node_gpus > 0 ? c.node_gpus : c.gpus_per_node)}};
}

void check_same_hardware(const CalibratedCluster& file, const Scenario& scenario, bool allow_other) {
  if (allow_other || file.hardware.empty()) return;
  std::string differences;
  for (const auto& [key, value] : hardware_of(scenario.cluster))
    for (const auto& [file_key, file_value] : file.hardware)
      if (key == file_key && value != file_value)
        differences += (differences.empty() ? "" : ", ") + key + " " + file_value + " there, " + value + " here";
  if (!differences.empty())
    throw InputError(file.path + ": calibration.hardware: expected the hardware of " + scenario.path + ", got " +
                         differences + " (--allow-other-cluster applies it anyway)",
                     true);
}

void write_calibrated_cluster(std::ostream& out, const CalibrationRecord& rec) {
  const TransportFit& f = rec.fit;
  out << "# scalecast calibrate: transport constants fitted to measurements; use it with\n"
      << "# scalecast predict SCENARIO --cluster THIS_FILE (its cluster: values override the scenario's)\n"
      << "calibration:\n  scenario: " << rec.scenario << "\n  measurements:\n";
  for (const auto& m : rec.measurements) out << "    - " << m << "\n";
  out << "  hardware: {";
  bool first = true;
  for (const auto& [key, value] : hardware_of(rec.hardware)) {
    out << (first ? "" : ", ") << key << ": \"" << value << "\"";
    first = false;
  }
  out << "}\n";
  out << "  samples: " << f.start_residuals.size() << "\n"
      << "  held_out_error_pct: {defaults: " << fmt::format("{:.2f}", mape(rec.cv.before))
      << ", calibrated: " << fmt::format("{:.2f}", mape(rec.cv.after)) << ", folds: " << rec.cv.folds << "}\n";
  std::vector<double> ratios;
  for (double r : rec.cv.after) ratios.push_back(std::exp(-r));
  out << "  measured_over_predicted: {p05: " << fmt::format("{:.4g}", quantile(ratios, 0.05))
      << ", p50: " << fmt::format("{:.4g}", quantile(ratios, 0.5))
      << ", p95: " << fmt::format("{:.4g}", quantile(ratios, 0.95)) << "}\n"
      << "  parameters:\n";
  for (size_t i = 0; i < f.parameters.size(); ++i) {
    const Parameter& p = f.parameters[i];
    const ParameterFit& r = f.results[i];
    out << "    " << p.key << ": {value: " << scenario_value(p.quantity, r.value);
    if (writes_value(r))
      out << ", low: " << scenario_value(p.quantity, r.low) << ", high: " << scenario_value(p.quantity, r.high);
    out << ", default: " << scenario_value(p.quantity, r.start) << ", status: \"" << to_string(r.status) << "\"}\n";
  }
  // The cluster block: fitted values only, as scenario keys.
  std::map<std::string, std::vector<std::pair<std::string, std::string>>> sections;  // section -> (key, value)
  bool curve = false;
  for (size_t i = 0; i < f.parameters.size(); ++i) {
    if (!writes_value(f.results[i])) continue;
    const std::string& key = f.parameters[i].key;
    if (key.find("bandwidth_by_size") != std::string::npos) {
      curve = true;
      continue;
    }
    const auto dot = key.find('.');
    sections[key.substr(0, dot)].push_back(
        {key.substr(dot + 1), scenario_value(f.parameters[i].quantity, f.results[i].value)});
  }
  if (curve) {
    std::string map = "{";
    for (const auto& [bytes, factor] : f.cluster.net.size_curve.anchors()) {
      const bool mib = bytes >= 1024 * 1024;
      map += (map.size() > 1 ? ", " : "") + fmt::format("{:.0f}", bytes / (mib ? 1024 * 1024 : 1024)) +
             (mib ? "MiB" : "KiB") + ": " + fmt::format("{:.4g}", factor);
    }
    sections["network"].push_back({"bandwidth_by_size", map + "}"});
  }
  out << "cluster:\n";
  if (sections.empty()) out << "  {}\n";
  for (const auto& [section, entries] : sections) {
    out << "  " << section << ":\n";
    for (const auto& [key, value] : entries) out << "    " << key << ": " << value << "\n";
  }
}

std::string joined_values(const std::vector<std::string>& values) {
  std::string out;
  for (const auto& v : values) out += (out.empty() ? "" : "; ") + v;
  return out;
}

CalibratedCluster read_calibrated_cluster(const std::string& path) {
  YAML::Node root;
  try {
    root = YAML::LoadFile(path);
  } catch (const YAML::BadFile&) {
    throw SourceError(
        path + ": expected a calibrated cluster file (scalecast calibrate -o), got one that cannot be read");
  } catch (const YAML::Exception& e) {
    throw SourceError(path + ":" + std::to_string(e.mark.line + 1) + ": expected YAML, got " + e.msg);
  }
  if (!root.IsMap() || !root["cluster"] || !root["calibration"])
    throw SourceError(path + ": expected the calibration: and cluster: blocks of scalecast calibrate -o");
  CalibratedCluster c;
  c.path = path;
  if (root["cluster"].IsMap()) flatten(root["cluster"], "cluster", path, c.overrides, c.values);
  if (const YAML::Node hardware = root["calibration"]["hardware"]; hardware) {
    if (!hardware.IsMap())
      throw SourceError(path + ": calibration.hardware: expected {gpu, fabric, transport, nic, gpus_per_node}");
    for (const auto& entry : hardware) {
      if (!entry.first.IsScalar() || !entry.second.IsScalar())
        throw SourceError(path + ": calibration.hardware: expected KEY: VALUE pairs");
      c.hardware.emplace_back(entry.first.Scalar(), entry.second.Scalar());
    }
  }
  const YAML::Node spread = root["calibration"]["measured_over_predicted"];
  try {
    if (spread && spread.IsMap()) {
      c.ratio_p05 = spread["p05"].as<double>();
      c.ratio_p95 = spread["p95"].as<double>();
      c.has_spread = c.ratio_p05 > 0 && c.ratio_p95 >= c.ratio_p05 && std::isfinite(c.ratio_p95);
      if (!c.has_spread) throw YAML::Exception(YAML::Mark::null_mark(), "p05 <= p95, both positive and finite");
    }
  } catch (const YAML::Exception& e) {
    throw SourceError(path + ": calibration.measured_over_predicted: expected {p05, p50, p95} ratios, got " + e.msg);
  }
  return c;
}

}  // namespace scalecast::calibration
