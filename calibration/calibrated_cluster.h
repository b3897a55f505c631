// The calibrated cluster file `scalecast calibrate -o` writes and `--cluster FILE` reads: a
// `cluster:` block of the fitted values under their scenario keys, which override a scenario's,
// and a `calibration:` record of where they came from, each parameter's 95% interval or why it
// kept its default, the held-out error before and after, and the spread of held-out ratios that
// prediction intervals use.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "calibration/transport_fit.h"
#include "sim/scenario/scenario.h"

namespace scalecast::calibration {

// What a calibration's constants belong to: the hardware they were fitted on (the GPU, the
// fabric inside a node, the network's transport and NIC, GPUs a node has), as (key, value) pairs.
std::vector<std::pair<std::string, std::string>> hardware_of(const Cluster& cluster);

struct CalibrationRecord {
  std::string scenario;                   // the base scenario the defaults came from
  Cluster hardware;                       // its cluster (hardware_of says what is recorded)
  std::vector<std::string> measurements;  // input files
  TransportFit fit;
  CrossValidation cv;
};

void write_calibrated_cluster(std::ostream& out, const CalibrationRecord& record);

struct CalibratedCluster {
  std::string path;
  ScenarioOverrides overrides;              // cluster.KEY=VALUE, origin: this file
  std::vector<std::string> values;          // "network.latency = 95.2us", for headers
  // Held-out measured / predicted at the 5th and 95th percentile (1 and 1 when absent).
  double ratio_p05 = 1, ratio_p95 = 1;
  bool has_spread = false;
  // calibration.hardware as written (empty for files written before it was recorded).
  std::vector<std::pair<std::string, std::string>> hardware;
};

// Throws InputError naming the file and every difference where `scenario`'s hardware is not what
// the file was calibrated on (unless `allow_other`): transport constants belong to a network.
void check_same_hardware(const CalibratedCluster& file, const Scenario& scenario, bool allow_other);

// "network.latency = 95.2us; network.efficiency = 0.9": the values a file sets, for headers.
std::string joined_values(const std::vector<std::string>& values);

// Throws an InputError naming the file, line and key of anything it cannot read: a file that is
// none (a folder), blocks that are not maps, a key given twice or unknown, a cluster key that
// calibrate does not fit (only fabric, network and parameter_server figures), a spread outside
// [0.001, 1000]. Each override's origin is "FILE:LINE:", so a value the scenario refuses names it.
CalibratedCluster read_calibrated_cluster(const std::string& path);
// The same from the file's text (the fuzz harness).
CalibratedCluster parse_calibrated_cluster(const std::string& text, const std::string& path);

}  // namespace scalecast::calibration
