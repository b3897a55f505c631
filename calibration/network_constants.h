// The cluster constants network calibration fits, each a field of Cluster: fabric bandwidth,
// network efficiency (bandwidth = NIC x efficiency), network latency and the servers' NIC rate.
#pragma once

#include <array>
#include <string>

#include "sim/cluster.h"

namespace scalecast::calibration {

inline constexpr std::size_t kConstantCount = 4;
using Constants = std::array<double, kConstantCount>;  // SI units, in the order of constant_info

struct ConstantInfo {
  std::string field;        // Cluster field, e.g. "fabric.link_bandwidth"
  std::string description;  // what it is, for reports
};

const std::array<ConstantInfo, kConstantCount>& constant_info();

// The scenario's cluster as a fit sees it: per-stream limit and host staging off, so the effective
// network bandwidth is nic_bandwidth x efficiency, with the efficiency and the servers' NIC rate
// chosen so that the effective bandwidths equal the scenario's (clamped into the bounds).
Cluster fitting_cluster(const Cluster& scenario_cluster);

Constants read_constants(const Cluster& cluster);
void apply_constants(Cluster& cluster, const Constants& values);
// fitting_cluster(scenario_cluster) with `values` applied: how fitted constants are used.
Cluster with_constants(const Cluster& scenario_cluster, const Constants& values);

// Physical bounds: fabric from 1% of its kind's default to its raw link rate (default / 0.8);
// efficiency in [0.01, 1]; latency within a decade of the transport's default (TCP 2.5 to
// 250 us, RDMA 0.2 to 20 us: a one-way small-message latency through one switch); servers' NIC from
// 1% to 100% of the workers' NIC rate.
struct ConstantBounds {
  Constants lower, upper;
};
ConstantBounds physical_bounds(const Cluster& cluster);

// "3.52 GB/s", "0.614", "41.2 us", "8.7 Gbit/s" for reports (GB = 1e9 B, Gbit = 1e9 bit).
std::string format_constant(std::size_t index, double value);

}  // namespace scalecast::calibration
