// Reading, writing and bounding the fitted constants on a Cluster, and the fitting start point
// that reproduces the scenario's effective bandwidths without stream limits or host staging.
#include "calibration/network_constants.h"

#include <algorithm>
#include <cstdio>

#include "sim/link_capacities.h"
#include "sim/units.h"

namespace scalecast::calibration {

const std::array<ConstantInfo, kConstantCount>& constant_info() {
  static const std::array<ConstantInfo, kConstantCount> info = {{
      {"fabric.link_bandwidth", "intra-node bandwidth per GPU and direction"},
      {"net.efficiency", "share of the NIC line rate bulk transfers reach (effective)"},
      {"net.latency_s", "one-way latency of a small message between two nodes"},
      {"ps.nic_bandwidth", "line rate of a dedicated parameter server's NIC"},
  }};
  return info;
}

Constants read_constants(const Cluster& c) {
  return {c.fabric.link_bandwidth, c.net.efficiency, c.net.latency_s,
          c.ps.nic_bandwidth > 0 ? c.ps.nic_bandwidth : c.nic_bandwidth};
}

void apply_constants(Cluster& c, const Constants& v) {
  c.fabric.link_bandwidth = v[0];
  c.net.efficiency = v[1];
  c.net.latency_s = v[2];
  c.ps.nic_bandwidth = v[3];
}

ConstantBounds physical_bounds(const Cluster& c) {
  const double fabric = default_fabric(c.fabric.kind).link_bandwidth;
  const double latency = default_transport_params(c.transport).latency_s;
  return {{fabric * 0.01, 0.01, latency / 10, c.nic_bandwidth * 0.01},
          {fabric / 0.8, 1.0, latency * 10, c.nic_bandwidth}};
}

Cluster fitting_cluster(const Cluster& scenario_cluster) {
  Cluster c = scenario_cluster;
  const LinkCapacities links = link_capacities(c);
  const double network = links.transfer_bandwidth(true);
  const double server_bw = links.server_transfer_bandwidth();
  c.net.stream_bandwidth = 0;
  c.net.host_staging_bandwidth = 0;
  c.net.efficiency = network / c.nic_bandwidth;
  c.ps.nic_bandwidth = server_bw / c.net.efficiency;
  const ConstantBounds b = physical_bounds(c);
  Constants v = read_constants(c);
  for (std::size_t i = 0; i < kConstantCount; ++i) v[i] = std::clamp(v[i], b.lower[i], b.upper[i]);
  apply_constants(c, v);
  return c;
}

Cluster with_constants(const Cluster& scenario_cluster, const Constants& values) {
  Cluster c = fitting_cluster(scenario_cluster);
  apply_constants(c, values);
  return c;
}

std::string format_constant(std::size_t index, double value) {
  char buf[48];
  if (index == 0)
    std::snprintf(buf, sizeof buf, "%.4g GB/s", value / units::kGBps);
  else if (index == 1)
    std::snprintf(buf, sizeof buf, "%.4g", value);
  else if (index == 2)
    std::snprintf(buf, sizeof buf, "%.4g us", value * 1e6);
  else
    std::snprintf(buf, sizeof buf, "%.4g Gbit/s", value / units::kGbps);
  return buf;
}

}  // namespace scalecast::calibration
