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
#include "sim/scenario.h"

namespace scalecast::calibration {

struct CalibrationRecord {
  std::string scenario;                   // the base scenario the defaults came from
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
};

// "network.latency = 95.2us; network.efficiency = 0.9": the values a file sets, for headers.
std::string joined_values(const std::vector<std::string>& values);

// Throws SourceError naming the file and key of anything it cannot read.
CalibratedCluster read_calibrated_cluster(const std::string& path);

}  // namespace scalecast::calibration
