// Prediction rows as a table (for people), CSV and JSON (for scripts), with fixed precision so
// the same inputs give byte-identical output.
#include "sim/report/prediction_report.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <algorithm>
#include <stdexcept>

#include "sim/io/input_error.h"
#include "sim/io/json_text.h"
#include "sim/report/csv_field.h"
#include "sim/report/text_table.h"

namespace scalecast {

std::string setting(const PredictionRow& row, const std::string& key) {
  for (const auto& [k, v] : row.settings)
    if (k == key) return v;
  return "";
}

namespace {

bool with_interval(const std::vector<PredictionRow>& rows) { return !rows.empty() && rows[0].interval_pct > 0; }

// Keys set from outside the scenario file, in the order first seen; with `varying`, only those
// whose value differs between rows (what tells a sweep's rows apart).
std::vector<std::string> setting_keys(const std::vector<PredictionRow>& rows, bool varying) {
  std::vector<std::string> keys;
  for (const auto& r : rows)
    for (const auto& [key, value] : r.settings)
      if (std::find(keys.begin(), keys.end(), key) == keys.end()) keys.push_back(key);
  if (!varying) return keys;
  std::erase_if(keys, [&](const std::string& key) {
    return std::all_of(rows.begin(), rows.end(),
                       [&](const PredictionRow& r) { return setting(r, key) == setting(rows[0], key); });
  });
  return keys;
}

// The network's line rate in Gbit/s, as scenarios write it.
std::string gbps(double bytes_per_s) { return fmt::format("{:g}", bytes_per_s * 8 / 1e9); }

}  // namespace

void write_table(std::ostream& out, const std::vector<PredictionRow>& rows) {
  const std::string unit = rows.empty() ? "samples" : rows[0].sample_unit;
  const bool interval = with_interval(rows);
  std::vector<std::string> header = {"method", "gpus", "nodes", "iteration"}, units = {"", "", "", "s"};
  if (interval) {
    const std::string level = fmt::format("{:g}", rows[0].interval_pct) + "%";
    header.insert(header.end(), {level + " low", level + " high"});
    units.insert(units.end(), {"s", "s"});
  }
  header.insert(header.end(), {"throughput", "speedup", "efficiency", "compute", "exposed_comm", "backend"});
  units.insert(units.end(), {unit + "/s", "x", "fraction", "s", "s", ""});
  const std::vector<std::string> swept = setting_keys(rows, true);
  for (const auto& key : swept) {
    header.push_back(key);
    units.push_back("");
  }
  TextTable t(header, units);
  for (const auto& r : rows) {
    std::vector<std::string> cells = {r.method, std::to_string(r.gpus), std::to_string(r.nodes),
                                      fmt::format("{:.4f}", r.iteration_s)};
    if (interval)
      cells.insert(cells.end(),
                   {fmt::format("{:.4f}", r.iteration_low_s), fmt::format("{:.4f}", r.iteration_high_s)});
    cells.insert(cells.end(), {fmt::format("{:.1f}", r.throughput), fmt::format("{:.2f}", r.speedup),
                               fmt::format("{:.3f}", r.efficiency), fmt::format("{:.4f}", r.compute_s),
                               fmt::format("{:.4f}", r.exposed_comm_s), r.backend});
    for (const auto& key : swept) cells.push_back(setting(r, key));
    t.add_row(cells);
  }
  t.write(out);
}

PredictionCsv::PredictionCsv(const std::vector<PredictionRow>& rows)
    : interval_(with_interval(rows)), keys_(setting_keys(rows, false)) {}

std::string PredictionCsv::header() const {
  std::string out =
      "scenario,model,method,gpus,nodes,batch_per_gpu,iteration_s,throughput,speedup,"
      "efficiency,compute_s,exposed_comm_s,backend,sample_unit,overrides,gpu,fabric,network_gbps,transport";
  if (interval_) out += ",interval_pct,iteration_low_s,iteration_high_s,throughput_low,throughput_high";
  for (const auto& key : keys_) out += "," + csv_field(key);
  return out;
}

std::string PredictionCsv::line(const PredictionRow& r) const {
  std::string out = fmt::format("{},{},{},{},{},{},{:.6f},{:.3f},{:.4f},{:.4f},{:.6f},{:.6f},{},{},{},{},{},{},{}",
                                csv_field(r.scenario), csv_field(r.model), r.method, r.gpus, r.nodes, r.batch_per_gpu,
                                r.iteration_s, r.throughput, r.speedup, r.efficiency, r.compute_s, r.exposed_comm_s,
                                r.backend, csv_field(r.sample_unit), csv_field(r.overrides), csv_field(r.gpu),
                                csv_field(r.fabric), gbps(r.network_bandwidth), r.transport);
  if (interval_)
    out += fmt::format(",{:g},{:.6f},{:.6f},{:.3f},{:.3f}", r.interval_pct, r.iteration_low_s, r.iteration_high_s,
                       r.throughput_low(), r.throughput_high());
  for (const auto& key : keys_) out += "," + csv_field(setting(r, key));
  return out;
}

void write_csv(std::ostream& out, const std::vector<PredictionRow>& rows) {
  const PredictionCsv csv(rows);
  out << csv.header() << '\n';
  for (const auto& r : rows) out << csv.line(r) << '\n';
}

namespace {

// Bytes per GPU by part; activations are null when a profile leaves them unknown.
nlohmann::ordered_json memory_json(const MemoryFit& m) {
  return {{"gpu", m.gpu},
          {"fits", m.fits()},
          {"needed_bytes", m.needed_bytes()},
          {"needed_low_bytes", m.low_bytes()},
          {"needed_high_bytes", m.high_bytes()},
          {"warning", memory_warning(m)},
          {"available_bytes", m.available_bytes},
          {"weights_bytes", m.weights_bytes},
          {"gradients_bytes", m.gradients_bytes},
          {"optimizer_bytes", m.optimizer_bytes},
          {"activations_bytes", m.activations_known ? nlohmann::ordered_json(m.activations_bytes)
                                                    : nlohmann::ordered_json()}};
}

// Each key set from outside the file with its value, as written.
nlohmann::ordered_json settings_json(const PredictionRow& r) {
  nlohmann::ordered_json j = nlohmann::ordered_json::object();
  for (const auto& [key, value] : r.settings) j[key] = value;
  return j;
}

}  // namespace

nlohmann::ordered_json prediction_json(const PredictionRow& r) {
  return {{"scenario", r.scenario},
          {"model", r.model},
          {"method", r.method},
          {"gpus", r.gpus},
          {"nodes", r.nodes},
          {"batch_per_gpu", r.batch_per_gpu},
          {"iteration_s", r.iteration_s},
          {"throughput", r.throughput},
          {"throughput_unit", r.sample_unit + "/s"},
          {"speedup", r.speedup},
          {"efficiency", r.efficiency},
          {"compute_s", r.compute_s},
          {"exposed_comm_s", r.exposed_comm_s},
          {"backend", r.backend},
          {"gpu", r.gpu},
          {"fabric", r.fabric},
          {"network_gbps", r.network_bandwidth * 8 / 1e9},
          {"transport", r.transport},
          {"overrides", r.overrides},
          {"settings", settings_json(r)},
          {"memory", memory_json(r.memory)}};
}

void write_json(std::ostream& out, const std::vector<PredictionRow>& rows) {
  nlohmann::ordered_json j = nlohmann::ordered_json::array();
  for (const auto& r : rows) j.push_back(prediction_json(r));
  if (with_interval(rows))
    for (std::size_t i = 0; i < rows.size(); ++i)
      j[i]["interval"] = {{"level_pct", rows[i].interval_pct},
                          {"iteration_low_s", rows[i].iteration_low_s},
                          {"iteration_high_s", rows[i].iteration_high_s},
                          {"throughput_low", rows[i].throughput_low()},
                          {"throughput_high", rows[i].throughput_high()}};
  out << json_text(j, 2) << "\n";
}

void write_rows(std::ostream& out, const std::vector<PredictionRow>& rows, const std::string& format) {
  if (format == "table") write_table(out, rows);
  else if (format == "csv") write_csv(out, rows);
  else if (format == "json") write_json(out, rows);
  else throw InputError("unknown format '" + format + "' (known: table, csv, json)");
}

}  // namespace scalecast
