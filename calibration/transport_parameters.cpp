// The fittable constants, from the cluster's field tables (sim/formats/cluster_fields.h: which fields,
// their ranges and order); the size curve as factors at fixed sizes.
#include "calibration/transport_parameters.h"

#include <algorithm>
#include <fmt/format.h>

#include "sim/formats/cluster_fields.h"
#include "sim/io/units.h"

namespace scalecast::calibration {

const std::vector<double>& size_curve_anchors() {
  static const std::vector<double> sizes = {4 * 1024.0, 16 * 1024.0, 64 * 1024.0, 256 * 1024.0, 1024 * 1024.0};
  return sizes;
}

namespace {

constexpr double kBulkAnchor = 16 * 1024.0 * 1024.0;

// Sets the curve's factor at `bytes`, keeping every fitted anchor and the bulk one (a curve
// with only some anchors would be flat beyond them).
void set_curve_factor(Cluster& c, double bytes, double factor) {
  std::vector<std::pair<double, double>> anchors;
  for (double at : size_curve_anchors()) anchors.emplace_back(at, at == bytes ? factor : c.net.size_curve.at(at));
  anchors.emplace_back(kBulkAnchor, 1.0);
  c.net.size_curve = SizeCurve(anchors);
}

std::string size_label(double bytes) {
  return bytes >= 1024 * 1024 ? std::to_string(static_cast<int>(bytes / (1024 * 1024))) + "MiB"
                              : std::to_string(static_cast<int>(bytes / 1024)) + "KiB";
}

Quantity quantity_of(Unit unit) {
  switch (unit) {
    case Unit::network_rate: return Quantity::network_rate;
    case Unit::fabric_rate: return Quantity::fabric_rate;
    case Unit::share: return Quantity::share;
    default: return Quantity::seconds;
  }
}

// The table's fittable fields of one block that apply to `base`, each with its order.
template <class Block>
void add_fittable(const FieldTable<Block>& table, const Cluster& base, bool with_servers,
                  std::vector<std::pair<int, std::vector<Parameter>>>& out) {
  for (const auto& f : table.fields) {
    if (!f.fit || (f.fit->servers_only && !with_servers) || (f.fit->applies && !f.fit->applies(base))) continue;
    const std::string key = std::string(table.scenario_block) + "." + std::string(f.scenario_key);
    std::vector<Parameter> parameters;
    if (f.unit == Unit::curve) {
      // The size curve as factors at fixed sizes.
      for (double at : size_curve_anchors())
        parameters.push_back({key + "." + size_label(at),
                              "share of the bulk rate a transfer of " + size_label(at) + " reaches", Quantity::share,
                              [at](const Cluster& c) { return c.net.size_curve.at(at); },
                              [at](Cluster& c, double v) { set_curve_factor(c, at, v); }, 0.02, 1});
    } else {
      const auto member = f.real;
      const auto block = table.block;
      const auto start = f.fit->start;
      const auto [lower, upper] = f.fit->range(base);
      parameters.push_back({key, std::string(f.meaning), quantity_of(f.unit),
                            [=](const Cluster& c) { return start ? start(c) : si_figure(c.*block, member); },
                            [=](Cluster& c, double v) { set_si_figure(c.*block, member, v); }, lower, upper});
    }
    out.emplace_back(f.fit->order, std::move(parameters));
  }
}

}  // namespace

std::vector<Parameter> transport_parameters(const Cluster& base, bool with_servers) {
  std::vector<std::pair<int, std::vector<Parameter>>> ordered;
  add_fittable(transport_fields(), base, with_servers, ordered);
  add_fittable(fabric_fields(), base, with_servers, ordered);
  add_fittable(parameter_server_fields(), base, with_servers, ordered);
  std::stable_sort(ordered.begin(), ordered.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<Parameter> out;
  for (auto& [order, parameters] : ordered) out.insert(out.end(), parameters.begin(), parameters.end());
  return out;
}

std::string scenario_value(Quantity q, double v) {
  switch (q) {
    case Quantity::seconds: return fmt::format("{:.6g}us", v * 1e6);
    case Quantity::network_rate: return fmt::format("{:.6g}Gbps", v / units::kGbps);
    case Quantity::fabric_rate: return fmt::format("{:.6g}GB/s", v / units::kGBps);
    case Quantity::share: return fmt::format("{:.6g}", v);
  }
  return {};
}

}  // namespace scalecast::calibration
