// An nccl-tests sweep of one collective as scalecast predicts it, size by size (and the measured
// time where a run is compared), written as nccl-tests' table, CSV or JSON: `scalecast collective`.
#pragma once

#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "sim/types/cluster.h"
#include "sim/collectives/collective_ops.h"
#include "sim/types/nccl_settings.h"
#include "sim/report/nccl_tests_table.h"

namespace scalecast {

struct CollectiveSweepRow {
  NcclTestsLine line;                 // the size, its count and the predicted time
  std::string algorithm;              // what NCCL runs: "nvls/Simple x16"
  std::string bound;                  // what sets the predicted time ("" where nothing is named)
  std::optional<double> measured_us;  // a compared run's time at this size
};

struct CollectiveSweep {
  std::string scenario;   // the scenario's name
  collectives::CollectiveOp op = collectives::CollectiveOp::all_reduce;
  std::string type;       // nccl-tests' -d element type
  int gpus = 0, nodes = 0, gpus_per_thread = 1;
  std::string shape;      // "2 nodes x 8 h100"
  std::vector<CollectiveSweepRow> rows;
};

// "2 nodes x 8 h100".
std::string cluster_shape(const Cluster& sized);

// The sweep's sizes from `min_bytes` to `max_bytes` (nccl-tests' -b, -e, -f, -i, -d, -g) on the
// sized cluster, each timed by NCCL's model under `nccl`.
CollectiveSweep predict_collective_sweep(const std::string& scenario, const Cluster& sized,
                                         const collectives::nccl::NcclSettings& nccl, collectives::CollectiveOp op,
                                         const std::string& type, double min_bytes, double max_bytes, double factor,
                                         double increment, int gpus_per_thread);

// nccl-tests' table of a sweep that has no measured times, with the algorithm and what sets the
// time by size as '#' lines after it.
void write_sweep_table(std::ostream& out, const CollectiveSweep& sweep);
// One row a size: scenario, op, GPUs, nodes, bytes, count, predicted time, algorithm and bound,
// and, where measured, the measured time and the error.
void write_sweep_csv(std::ostream& out, const CollectiveSweep& sweep);
void write_sweep_json(std::ostream& out, const CollectiveSweep& sweep);

}  // namespace scalecast
