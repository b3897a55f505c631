// The constants calibration may fit, each with its place in a scenario (so a fitted value is
// written and read back as a scenario key), how it is read and set on a cluster, and its
// physical range: per-call overhead, per-step latency, efficiency, the size curve, stream cap,
// fabric bandwidth and latency, the servers' NIC.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "sim/types/cluster.h"

namespace scalecast::calibration {

enum class Quantity { seconds, network_rate, fabric_rate, share };

struct Parameter {
  std::string key;          // below cluster. in a scenario: "network.latency"
  std::string description;  // what it is, for reports
  Quantity quantity;
  std::function<double(const Cluster&)> get;
  std::function<void(Cluster&, double)> set;
  double lower = 0, upper = 0;  // physical range
};

// Sizes of the size curve's anchors calibration fits (4, 16, 64, 256 KiB and 1 MiB), below the bulk
// anchor at 16 MiB that stays at 1: the efficiency sets the bulk rate.
const std::vector<double>& size_curve_anchors();

// The constants of `base`'s transport and fabric a fit may move: the stream cap only where the
// transport has one, the servers' NIC only where `with_servers`.
std::vector<Parameter> transport_parameters(const Cluster& base, bool with_servers);

// The value as a scenario writes it, with its unit ("95.2us", "9.41Gbps", "11.3GB/s", "0.89").
std::string scenario_value(Quantity quantity, double value);

}  // namespace scalecast::calibration
