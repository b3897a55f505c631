// Validation of collectives: every nccl-tests output of data/nccl-tests (clusters.csv names its
// operation, run size and scenario) predicted size by size, with the error per cluster in the
// latency regime (< 64 KiB) and the bandwidth regime (>= 1 MiB).
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "sim/collectives/collective_ops.h"
#include "sim/io/scenario_override.h"
#include "validation/collective_comparison.h"

namespace scalecast::validation {

struct ClusterRun {
  std::string cluster, file, scenario;
  std::string nccl_version;  // clusters.csv's, where the run's source states it ("" : the scenario's)
  // "gate": judged by the means and the regression gate; otherwise "setup: WHY" the run measures
  // its setup rather than its hardware (reported, not judged).
  std::string role = "gate";
  bool gate() const { return role == "gate"; }
  collectives::CollectiveOp op = collectives::CollectiveOp::all_reduce;
  CollectiveComparison comparison;
};

struct CollectiveValidation {
  std::vector<ClusterRun> clusters;
};

// Empty when the data folder has no nccl-tests/clusters.csv. Throws an InputError
// naming the file and line of anything it cannot read.
CollectiveValidation validate_collectives(const std::string& data, std::ostream& progress,
                                          const ScenarioOverrides& cluster = {});

// The means over the judged clusters of their regimes' MAPE (percent), how many clusters are
// above 15% and 25% from 1 MiB, and how many are predicted more than 10% fast or slow over
// training's message sizes (1-64 MiB, signed).
struct CollectiveMeans {
  double latency_pct = 0, bandwidth_pct = 0;
  int latency_clusters = 0, bandwidth_clusters = 0, over15 = 0, over25 = 0;
  int bucket_clusters = 0, fast_clusters = 0, slow_clusters = 0;
};
CollectiveMeans collective_means(const CollectiveValidation& v);

// One line per cluster with its regimes' MAPE, and the means over clusters.
void write_collective_summary(std::ostream& out, const CollectiveValidation& v);

// The regression gate's figures: "nccl-tests/CLUSTER/latency" and ".../bandwidth" with their
// sizes and MAPE.
struct CollectiveFigure {
  std::string name;
  std::size_t sizes = 0;
  double mape_pct = 0;
};
std::vector<CollectiveFigure> collective_figures(const CollectiveValidation& v);

}  // namespace scalecast::validation
