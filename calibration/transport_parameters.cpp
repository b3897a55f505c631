// The fittable constants with their ranges: latencies and overheads within a decade of the
// scenario's, rates from 1% of the scenario's to its line rate, shares in (0.02, 1]; the size
// curve as factors at fixed sizes.
#include "calibration/transport_parameters.h"

#include <algorithm>
#include <fmt/format.h>

#include "sim/units.h"

namespace scalecast::calibration {
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

}  // namespace

const std::vector<double>& size_curve_anchors() {
  static const std::vector<double> sizes = {4 * 1024.0, 16 * 1024.0, 64 * 1024.0, 256 * 1024.0, 1024 * 1024.0};
  return sizes;
}

std::vector<Parameter> transport_parameters(const Cluster& base, bool with_servers) {
  std::vector<Parameter> out;
  // Latencies and overheads within a decade of the scenario's own (at least 1 us): what one
  // transport stack, switch hop or library call takes, not what a model error asks for.
  const auto decade = [](double v, double floor) { return std::pair{std::max(v, floor) / 10, std::max(v, floor) * 10}; };
  const auto [overhead_lo, overhead_hi] = decade(base.net.call_overhead_s, 1e-6);
  const auto [latency_lo, latency_hi] = decade(base.net.latency_s, 1e-6);
  const auto [fabric_lo, fabric_hi] = decade(base.fabric.latency_s, 1e-6);
  out.push_back({"network.call_overhead", "software cost of one collective call or request", Quantity::seconds,
                 [](const Cluster& c) { return c.net.call_overhead_s; },
                 [](Cluster& c, double v) { c.net.call_overhead_s = v; }, overhead_lo, overhead_hi});
  // Where nodes share cores, the CPU work of a message scales with the nodes and latency does
  // not: the two are told apart (elsewhere they add up to one per-step cost, and latency holds it).
  if (base.shared_cores > 0)
    out.push_back({"network.message_overhead", "host CPU work of one message between nodes", Quantity::seconds,
                   [](const Cluster& c) { return c.net.message_overhead_s; },
                   [](Cluster& c, double v) { c.net.message_overhead_s = v; }, 1e-9, std::max(latency_hi, 1e-3)});
  out.push_back({"network.latency", "latency of one step between nodes", Quantity::seconds,
                 [](const Cluster& c) { return c.net.latency_s; }, [](Cluster& c, double v) { c.net.latency_s = v; },
                 latency_lo, latency_hi});
  out.push_back({"network.efficiency", "share of the NIC line rate bulk transfers reach", Quantity::share,
                 [](const Cluster& c) { return c.net.efficiency; }, [](Cluster& c, double v) { c.net.efficiency = v; },
                 0.02, 1});
  for (double at : size_curve_anchors())
    out.push_back({"network.bandwidth_by_size." + size_label(at),
                   "share of the bulk rate a transfer of " + size_label(at) + " reaches", Quantity::share,
                   [at](const Cluster& c) { return c.net.size_curve.at(at); },
                   [at](Cluster& c, double v) { set_curve_factor(c, at, v); }, 0.02, 1});
  if (base.net.stream_bandwidth > 0)
    out.push_back({"network.stream_bandwidth", "bytes/s one stream carries", Quantity::network_rate,
                   [](const Cluster& c) { return c.net.stream_bandwidth; },
                   [](Cluster& c, double v) { c.net.stream_bandwidth = v; }, 0.1 * units::kGbps, 400 * units::kGbps});
  const double fabric = base.fabric.link_bandwidth;
  out.push_back({"fabric.bandwidth", "bytes/s per GPU and direction inside a node", Quantity::fabric_rate,
                 [](const Cluster& c) { return c.fabric.link_bandwidth; },
                 [](Cluster& c, double v) { c.fabric.link_bandwidth = v; }, 0.01 * fabric,
                 fabric_line_rate(base.fabric)});
  out.push_back({"fabric.latency", "latency of one step inside a node", Quantity::seconds,
                 [](const Cluster& c) { return c.fabric.latency_s; },
                 [](Cluster& c, double v) { c.fabric.latency_s = v; }, fabric_lo, fabric_hi});
  if (with_servers) {
    // Identified where servers' workers sum their GPUs first (BytePS); no effect otherwise.
    const auto [stage_lo, stage_hi] = decade(base.ps.stage_overhead_s, 1e-6);
    out.push_back({"parameter_server.stage_overhead", "host cost of one partition in one node-local stage",
                   Quantity::seconds, [](const Cluster& c) { return c.ps.stage_overhead_s; },
                   [](Cluster& c, double v) { c.ps.stage_overhead_s = v; }, stage_lo, stage_hi});
    out.push_back({"parameter_server.bandwidth", "line rate of a dedicated server's NIC", Quantity::network_rate,
                   [](const Cluster& c) { return c.ps.nic_bandwidth > 0 ? c.ps.nic_bandwidth : c.nic_bandwidth; },
                   [](Cluster& c, double v) { c.ps.nic_bandwidth = v; }, 0.01 * base.nic_bandwidth,
                   base.nic_bandwidth});
  }
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
