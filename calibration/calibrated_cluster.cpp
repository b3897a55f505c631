// Writing the calibration as YAML (deterministic, units on every value) and reading the cluster
// block back as scenario overrides, the size curve as one map.
#include "calibration/calibrated_cluster.h"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "sim/formats/cluster_fields.h"
#include "sim/io/input_error.h"
#include "sim/io/input_text.h"

namespace scalecast::calibration {
namespace {

bool writes_value(const ParameterFit& r) { return r.status == FitStatus::fitted; }

[[noreturn]] void refuse(const std::string& path, const YAML::Node& at, const std::string& key,
                         const std::string& what) {
  const int line = at.Mark().line >= 0 ? at.Mark().line + 1 : 1;
  throw InputError(InputKind::file, path + ":" + std::to_string(line) + ": " + key + ": " + what);
}

std::string shown(const YAML::Node& node) {
  if (!node.IsDefined() || node.IsNull()) return "nothing";
  if (node.IsSequence()) return "a list";
  if (node.IsMap()) return "a map";
  return quote_input(node.Scalar());
}

// The entries of a map, each key a scalar given once; `key` is the map's key path for errors.
std::vector<std::pair<YAML::Node, YAML::Node>> entries_once(const std::string& path, const YAML::Node& map,
                                                            const std::string& key, const std::string& expected) {
  if (!map.IsMap()) refuse(path, map, key, "expected " + expected + ", got " + shown(map));
  std::vector<std::pair<YAML::Node, YAML::Node>> out;
  std::set<std::string> seen;
  for (const auto& entry : map) {
    if (!entry.first.IsScalar())
      refuse(path, entry.first, key, "expected " + expected + " (keys that are names), got a key that is " +
                                         shown(entry.first));
    const std::string name = entry.first.Scalar();
    if (!seen.insert(name).second) refuse(path, entry.first, key + "." + name, "expected each key once");
    out.emplace_back(entry.first, entry.second);
  }
  return out;
}

// Flattens the cluster block into overrides, each naming its file and line as its origin, so a
// value the scenario refuses is blamed on this file; a size curve (keys are sizes) stays one map.
// Only what calibrate fits may be there: the fabric's, network's and parameter servers' figures.
void flatten(const YAML::Node& cluster, const std::string& path, ScenarioOverrides& out,
             std::vector<std::string>& values) {
  if (cluster.IsMap() && cluster.size() == 0) return;
  const std::string sections = "a map of fabric, network and parameter_server figures (what calibrate fits)";
  for (const auto& [section_key, section] : entries_once(path, cluster, "cluster", sections)) {
    const std::string section_path = "cluster." + section_key.Scalar();
    // The figures a built cluster can still take (the adjustable fields of sim/formats/cluster_fields.h,
    // with_transport_values): never the hardware (a GPU, fabric kind, NIC, transport).
    static const std::map<std::string, std::vector<std::string>> kFigures = {
        {"fabric", scenario_keys(fabric_fields(), true)},
        {"network", scenario_keys(transport_fields(), true)},
        {"parameter_server", scenario_keys(parameter_server_fields(), true)}};
    const auto figures = kFigures.find(section_key.Scalar());
    if (figures == kFigures.end())
      refuse(path, section_key, section_path, "expected fabric, network or parameter_server (what calibrate fits)");
    for (const auto& [key, value] : entries_once(path, section, section_path, "a map of KEY: VALUE")) {
      const std::string key_path = section_path + "." + key.Scalar();
      if (std::find(figures->second.begin(), figures->second.end(), key.Scalar()) == figures->second.end()) {
        std::string known;
        for (const auto& k : figures->second) known += (known.empty() ? "" : ", ") + k;
        refuse(path, key, key_path, "expected one of the figures calibrate fits (" + known + "), got '" + key.Scalar() + "'");
      }
      if (key.Scalar() == "bandwidth_by_size") {
        for (const auto& [size, factor] : entries_once(path, value, key_path, "a map of SIZE: FACTOR"))
          if (!factor.IsScalar())
            refuse(path, factor, key_path + "." + size.Scalar(), "expected a number, got " + shown(factor));
      } else if (!value.IsScalar()) {
        refuse(path, value.IsNull() ? key : value, key_path, "expected a value, got " + shown(value));
      }
      YAML::Emitter e;
      e << YAML::Flow << value;
      const int line = key.Mark().line >= 0 ? key.Mark().line + 1 : 1;
      out.sets.push_back({key_path + "=" + e.c_str(), path + ":" + std::to_string(line) + ":"});
      values.push_back(key_path.substr(std::string("cluster.").size()) + " = " + e.c_str());
    }
  }
}

// A held-out ratio of measured to predicted time: within a factor of 1000 either way.
double spread_ratio(const std::string& path, const YAML::Node& node, const std::string& key) {
  const std::string expected = "expected a ratio of measured to predicted time in [0.001, 1000], got ";
  if (!node.IsScalar()) refuse(path, node, key, expected + shown(node));
  double value = 0;
  if (!YAML::convert<double>::decode(node, value) || !(value >= 1e-3 && value <= 1e3))
    refuse(path, node, key, expected + quote_input(node.Scalar()));
  return value;
}

}  // namespace

std::vector<std::pair<std::string, std::string>> hardware_of(const Cluster& c) {
  return {{"gpu", c.gpu},
          {"fabric", c.fabric.kind},
          {"transport", to_string(c.transport)},
          {"nic", c.nic.empty() ? fmt::format("{:g}Gbps", c.nic_bandwidth.bytes_per_s() * 8 / 1e9) : c.nic},
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
    throw InputError(InputKind::file, file.path + ": calibration.hardware: expected the hardware of " + scenario.path + ", got " +
                         differences + " (--allow-other-cluster applies it anyway)");
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

CalibratedCluster parse_calibrated_cluster(const std::string& text, const std::string& path) {
  if (text.find('\0') != std::string::npos)
    throw InputError(InputKind::file, path + ": expected a calibrated cluster file (scalecast calibrate -o), got a NUL byte");
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    throw InputError(InputKind::file, path + ":" + std::to_string(std::max(0, e.mark.line) + 1) + ": expected YAML, got " + e.msg);
  }
  const std::string blocks = "the calibration: and cluster: blocks of scalecast calibrate -o";
  if (!root.IsMap()) throw InputError(InputKind::file, path + ": expected " + blocks + ", got " + shown(root));
  std::map<std::string, YAML::Node> top;
  for (const auto& [key, value] : entries_once(path, root, "top level", blocks)) {
    if (key.Scalar() != "calibration" && key.Scalar() != "cluster")
      refuse(path, key, key.Scalar(), "expected one of the keys calibration, cluster");
    top[key.Scalar()] = value;
  }
  if (!top.count("cluster") || !top.count("calibration"))
    throw InputError(InputKind::file, path + ": expected " + blocks + ", got " + (top.count("cluster") ? "no calibration:" : "no cluster:"));
  CalibratedCluster c;
  c.path = path;
  flatten(top["cluster"], path, c.overrides, c.values);
  std::map<std::string, YAML::Node> calibration;
  for (const auto& [key, value] : entries_once(path, top["calibration"], "calibration", "a map of what calibrate recorded")) {
    static const std::set<std::string> known = {"scenario",           "measurements",          "hardware", "samples",
                                                "held_out_error_pct", "measured_over_predicted", "parameters"};
    if (!known.count(key.Scalar()))
      refuse(path, key, "calibration." + key.Scalar(),
             "expected one of the keys scenario, measurements, hardware, samples, held_out_error_pct, "
             "measured_over_predicted, parameters");
    calibration[key.Scalar()] = value;
  }
  if (calibration.count("hardware")) {
    static const std::set<std::string> known = {"gpu", "fabric", "transport", "nic", "gpus_per_node"};
    const std::string expected = "a map of gpu, fabric, transport, nic and gpus_per_node";
    for (const auto& [key, value] : entries_once(path, calibration["hardware"], "calibration.hardware", expected)) {
      const std::string key_path = "calibration.hardware." + key.Scalar();
      if (!known.count(key.Scalar())) refuse(path, key, key_path, "expected one of the keys gpu, fabric, transport, nic, gpus_per_node");
      if (!value.IsScalar())
        refuse(path, value.IsNull() ? key : value, key_path, "expected a name, got " + shown(value));
      if (!value.Scalar().empty()) c.hardware.emplace_back(key.Scalar(), value.Scalar());  // "": not recorded
    }
  }
  if (calibration.count("measured_over_predicted")) {
    const std::string key = "calibration.measured_over_predicted";
    std::map<std::string, double> ratios;
    for (const auto& [name, value] : entries_once(path, calibration[key.substr(12)], key, "a map of p05, p50, p95")) {
      if (name.Scalar() != "p05" && name.Scalar() != "p50" && name.Scalar() != "p95")
        refuse(path, name, key + "." + name.Scalar(), "expected one of the keys p05, p50, p95");
      ratios[name.Scalar()] = spread_ratio(path, value, key + "." + name.Scalar());
    }
    if (!ratios.count("p05") || !ratios.count("p95"))
      refuse(path, calibration[key.substr(12)], key, "expected both p05 and p95");
    c.ratio_p05 = ratios["p05"];
    c.ratio_p95 = ratios["p95"];
    const double p50 = ratios.count("p50") ? ratios["p50"] : c.ratio_p05;
    if (!(c.ratio_p05 <= p50 && p50 <= c.ratio_p95))
      refuse(path, calibration[key.substr(12)], key,
             fmt::format("expected p05 <= p50 <= p95, got {:g}, {:g}, {:g}", c.ratio_p05, p50, c.ratio_p95));
    c.has_spread = true;
  }
  return c;
}

CalibratedCluster read_calibrated_cluster(const std::string& path) {
  std::error_code ec;
  const std::string expected = ": expected a calibrated cluster file (scalecast calibrate -o), got ";
  if (!std::filesystem::is_regular_file(path, ec))
    throw InputError(InputKind::file, path + expected +
                      (std::filesystem::is_directory(path, ec) ? "a folder"
                       : std::filesystem::exists(path, ec)     ? "something that is not a file"
                                                               : "no such file"));
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  if (!in) throw InputError(InputKind::file, path + expected + "one that cannot be read");
  return parse_calibrated_cluster(text.str(), path);
}

}  // namespace scalecast::calibration
