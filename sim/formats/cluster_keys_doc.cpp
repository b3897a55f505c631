// Writes docs/CLUSTER_KEYS.md from the field tables: each block's keys with their units, ranges,
// the defaults of each transport or fabric kind, and meanings (tests check the file matches).
#include "sim/formats/cluster_keys_doc.h"

#include <algorithm>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "sim/formats/cluster_fields.h"

namespace scalecast {
namespace {

std::string unit_text(Unit unit) {
  switch (unit) {
    case Unit::seconds: return "duration (25us)";
    case Unit::network_rate: return "rate (10Gbps)";
    case Unit::fabric_rate: return "rate (40GB/s)";
    case Unit::bytes: return "size (1MiB)";
    case Unit::share: return "share (0.9)";
    case Unit::count: return "count";
    case Unit::flag: return "true or false";
    case Unit::choice: return "name";
    case Unit::curve: return "map {SIZE: share}";
  }
  return {};
}

std::string quantity_text(Unit unit, double v) {
  if (v == 0) return "0";
  switch (unit) {
    case Unit::seconds: return v < 1e-3 ? fmt::format("{:g}us", v * 1e6) : fmt::format("{:g}ms", v * 1e3);
    case Unit::network_rate: return fmt::format("{:g}Gbps", v * 8 / 1e9);
    case Unit::fabric_rate: return fmt::format("{:g}GB/s", v / 1e9);
    case Unit::bytes: return v >= 1024 * 1024 ? fmt::format("{:g}MiB", v / (1024 * 1024)) : fmt::format("{:g}KiB", v / 1024);
    default: return fmt::format("{:g}", v);
  }
}

template <class Block>
std::string value_text(const Field<Block>& f, const Block& b) {
  if (f.has_real()) return quantity_text(f.unit, si_figure(b, f.real));
  if (f.whole) return std::to_string(b.*f.whole);
  if (f.flag && f.unit == Unit::choice) return std::string(b.*f.flag ? f.flag_on : f.flag_off);
  if (f.flag) return b.*f.flag ? "true" : "false";
  if (!f.write_schedule) return {};
  const nlohmann::ordered_json written = f.write_schedule(b);
  if (written.is_string()) return written.get<std::string>();
  return written.empty() ? "none" : written.dump();
}

// The defaults of each named block, equal ones together: "25us (tcp); 2us (rdma)", or one value.
template <class Block>
std::string defaults_text(const Field<Block>& f, const std::vector<std::pair<std::string, Block>>& defaults,
                          const std::string& set_by) {
  std::vector<std::pair<std::string, std::string>> groups;  // value, names
  for (const auto& [name, block] : defaults) {
    const std::string value = value_text(f, block);
    auto group = std::find_if(groups.begin(), groups.end(), [&](const auto& g) { return g.first == value; });
    if (group == groups.end())
      groups.emplace_back(value, name);
    else
      group->second += ", " + name;
  }
  if (groups.size() == 1) return groups.front().first;
  if (std::all_of(groups.begin(), groups.end(), [](const auto& g) { return g.first == g.second; }))
    return "set by the " + set_by;
  std::string text;
  for (const auto& [value, names] : groups) text += (text.empty() ? "" : "; ") + value + " (" + names + ")";
  return text;
}

template <class Block>
std::string range_text(const Field<Block>& f) {
  std::string text;
  if (f.bound) text = f.bound().describe();
  if (f.unit == Unit::count) text = fmt::format("in [{}, {}]", f.min, f.max);
  if (!f.zero.empty()) text += "; left out: " + std::string(f.zero);
  if (f.only_with) text += (text.empty() ? "" : "; ") + to_string(*f.only_with) + " only";
  return text;
}

std::string or_dash(std::string_view text) { return text.empty() ? "-" : std::string(text); }

template <class Block>
std::string table_markdown(const FieldTable<Block>& table, const std::vector<std::pair<std::string, Block>>& defaults,
                           const std::string& set_by) {
  std::string out = fmt::format("## cluster.{} (schedules: cluster.{})\n\n", table.scenario_block, table.schedule_block);
  out += "| Scenario key | Schedule key | Unit | Range | Default | Fitted | Meaning |\n";
  out += "|---|---|---|---|---|---|---|\n";
  for (const auto& f : table.fields) {
    const std::string scenario = f.scenario_key.empty() ? "-" : fmt::format("`{}`", f.scenario_key);
    const std::string schedule = f.schedule_key.empty() ? "-" : fmt::format("`{}`", f.schedule_key);
    out += fmt::format("| {} | {} | {} | {} | {} | {} | {}{} |\n", scenario, schedule, unit_text(f.unit),
                       or_dash(range_text(f)), or_dash(defaults_text(f, defaults, set_by)),
                       f.fit ? (f.fit->servers_only ? "with servers" : "yes") : "", f.meaning,
                       f.adjustable || f.scenario_key.empty() ? "" : " (hardware: not in a calibrated cluster file)");
  }
  return out + "\n";
}

}  // namespace

std::string cluster_keys_markdown() {
  std::vector<std::pair<std::string, Fabric>> fabrics;
  for (const auto& kind : fabric_kinds()) fabrics.emplace_back(kind, default_fabric(kind));
  std::vector<std::pair<std::string, TransportParams>> transports;
  for (Transport t : {Transport::tcp, Transport::rdma, Transport::efa})
    transports.emplace_back(to_string(t), default_transport_params(t));
  std::string out =
      "# Cluster keys\n\n"
      "Generated from sim/formats/cluster_fields.cpp by sim/formats/cluster_keys_doc.cpp; the test ClusterKeysDoc checks this file\n"
      "matches (SCALECAST_WRITE_DOCS=1 build/sim/scalecast_tests --gtest_filter='ClusterKeysDoc*' rewrites it).\n"
      "A scenario states these under `cluster.`; a schedule file records them under the schedule key. Defaults\n"
      "are the fabric kind's or the transport's (a catalog NIC, `network.nic`, sets its own latencies); a\n"
      "calibrated cluster file (`--cluster`) may state every key but the hardware.\n\n";
  out += table_markdown(fabric_fields(), fabrics, "kind");
  out += table_markdown(transport_fields(), transports, "transport");
  out += table_markdown(parameter_server_fields(), {{"", ParameterServers{}}}, "");
  return out;
}

}  // namespace scalecast
