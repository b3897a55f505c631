// The validate runner: predicts every measured row from its testbed's scenario, zero-shot and
// with per-network calibrated constants, and gathers the points the metrics and reports use.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "sim/io/work_share.h"
#include "validation/calibration_split.h"
#include "validation/cases.h"
#include "validation/collective_holdouts.h"
#include "validation/collectives.h"
#include "validation/measurements.h"
#include "validation/metrics.h"

namespace scalecast::validation {

enum class Mode { zero_shot, calibrated };
std::string to_string(Mode mode);          // "zero-shot", "calibrated"
Mode parse_mode(const std::string& text);  // throws an InputError

struct RowPrediction {
  bool predicted = false;  // false: the row is not expressible (Case::reason says why)
  double throughput = 0;   // samples/s
};

struct ValidationOptions {
  std::string data = "validation/data";
  std::string backend = "analytical";  // any name make_backend knows
  std::vector<Mode> modes = {Mode::zero_shot, Mode::calibrated};
  // A calibrated cluster file (scalecast calibrate -o) whose values override every testbed's
  // scenario, before any per-network calibration: its path, its overrides and, for headers, its
  // values ("network.latency = 95us").
  std::string cluster_file;
  ScenarioOverrides cluster;
  std::vector<std::string> cluster_values;
  // Calibrate the NCCL model on parts of each measured collective and judge the rest
  // (collective_holdouts.h); an ablation's runs leave it out.
  bool collective_holdouts = true;
  // The work items this process computes (validate --shard) or reads back from the shards'
  // parts (merge); null: all. Item i < rows is row i's zero-shot prediction (when that mode
  // runs), the next ones each calibration group's fit and predictions (networks() order). A
  // shard leaves out the collectives; the merge computes them (analytical, seconds).
  WorkShare* share = nullptr;
};

// The work items of a validation of `rows` measured rows in `groups` (table, network) groups.
std::size_t validation_items(const ValidationOptions& options, std::size_t rows, std::size_t groups);

struct ValidationResult {
  std::string backend;
  std::vector<Mode> modes;
  std::string cluster_file;                 // "" when no calibrated cluster file was given
  std::vector<std::string> cluster_values;  // what it set
  std::vector<MeasuredRow> rows;
  std::vector<Case> cases;                // one per row
  std::vector<bool> calibration_row;      // in its network's calibration subset
  std::vector<RowPrediction> zero_shot;   // per row (empty when the mode was not run)
  std::vector<RowPrediction> calibrated;  // per row; calibration rows are in-sample here
  std::vector<GroupFit> fits;             // per (table, network), calibrated mode only
  CollectiveValidation collectives;       // data/nccl-tests, zero-shot mode only
  std::vector<CollectiveHoldout> collective_holdouts;  // likewise, where the options ask for them

  bool ran(Mode mode) const;
  const std::vector<RowPrediction>& predictions(Mode mode) const;
  // The rows a mode is judged on: zero-shot every predicted row (held_out_only: only those
  // outside the calibration subset); calibrated always the held-out rows.
  std::vector<std::size_t> evaluated_rows(Mode mode, bool held_out_only) const;
  std::vector<Point> points(Mode mode, const std::vector<std::size_t>& rows) const;
  std::vector<std::size_t> not_expressible() const;
};

// Progress lines go to `progress`. Throws an InputError for bad inputs.
ValidationResult run_validation(const ValidationOptions& options, std::ostream& progress);

}  // namespace scalecast::validation
