// The scenario `cluster:` block of a Cluster, in the units the scenario reader parses (GB/s for
// fabrics, Gbps for NICs, us for latencies), with six significant digits.
#include "calibration/cluster_yaml.h"

#include <cstdio>

#include "sim/units.h"

namespace scalecast::calibration {
namespace {

std::string number(double value, double scale, const char* unit) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.6g%s", value / scale, unit);
  return buf;
}

std::string gbytes(double bytes_per_s) { return number(bytes_per_s, units::kGBps, "GB/s"); }
std::string gbits(double bytes_per_s) { return number(bytes_per_s, units::kGbps, "Gbps"); }
std::string micros(double seconds) { return number(seconds, 1e-6, "us"); }

}  // namespace

void write_cluster_yaml(std::ostream& out, const Cluster& c,
                        const std::vector<std::string>& comments) {
  for (const auto& line : comments) out << "# " << line << '\n';
  out << "cluster:\n"
      << "  gpus_per_node: " << c.gpus_per_node << '\n'
      << "  fabric:\n"
      << "    kind: " << c.fabric.kind << '\n'
      << "    bandwidth: " << gbytes(c.fabric.link_bandwidth) << '\n'
      << "    latency: " << micros(c.fabric.latency_s) << '\n';
  if (c.fabric.bridge_bandwidth > 0)
    out << "    bridge_bandwidth: " << gbytes(c.fabric.bridge_bandwidth) << '\n';
  const TransportParams& n = c.net;
  out << "  network:\n"
      << "    bandwidth: " << gbits(c.nic_bandwidth) << '\n'
      << "    transport: " << to_string(c.transport) << '\n'
      << "    efficiency: " << number(n.efficiency, 1, "") << '\n'
      << "    latency: " << micros(n.latency_s) << '\n'
      << "    stream_bandwidth: " << gbits(n.stream_bandwidth) << '\n'
      << "    streams: " << n.streams << '\n'
      << "    host_staging_bandwidth: " << gbytes(n.host_staging_bandwidth) << '\n'
      << "    call_overhead: " << micros(n.call_overhead_s) << '\n';
  const Topology& t = c.topology;
  if (t.kind == TopologyKind::leaf_spine) {
    out << "  topology:\n    kind: leaf-spine\n    nodes_per_leaf: " << t.nodes_per_leaf << '\n'
        << "    oversubscription: " << number(t.oversubscription, 1, "") << '\n';
  } else {
    out << "  topology: " << to_string(t.kind) << '\n';
  }
  const ParameterServers& ps = c.ps;
  out << "  parameter_server:\n    placement: " << to_string(ps.placement) << '\n';
  if (ps.gpus_per_server > 0) out << "    gpus_per_server: " << ps.gpus_per_server << '\n';
  if (ps.servers > 0) out << "    servers: " << ps.servers << '\n';
  if (ps.nic_bandwidth > 0) out << "    bandwidth: " << gbits(ps.nic_bandwidth) << '\n';
}

}  // namespace scalecast::calibration
