// Calibration of the NCCL model on measured collectives, judged on what it was not fitted to: per
// cluster, its sizes below the median against the rest (a constant that serves only small or only
// large messages does not carry over), and per machine measured twice (two files of one scenario
// and shape), one file against the other.
#pragma once

#include <string>
#include <vector>

#include "validation/collectives.h"

namespace scalecast::validation {

struct CollectiveHoldout {
  std::string what;    // "aws-p5-2x8" or "aws-p5-2x8 + aws-p5-2x8-nccl2.22"
  std::string split;   // "by size" or "by file"
  int samples = 0;
  double defaults_pct = 0, calibrated_pct = 0;  // held-out MAPE
  std::vector<std::string> fitted;  // constants kept ("network.latency 27.5us")
};

// The judged clusters' holdouts. Throws as load_scenario does for a cluster's scenario.
std::vector<CollectiveHoldout> collective_holdouts(const CollectiveValidation& v, const ScenarioOverrides& cluster = {});

void write_holdout_summary(std::ostream& out, const std::vector<CollectiveHoldout>& holdouts);

}  // namespace scalecast::validation
