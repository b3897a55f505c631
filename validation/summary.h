// The validation summary: MAPE, worst row, ranking agreement and coverage per table and mode,
// printed as a table with a units row or as CSV; and the per-row CSV (rows.csv).
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "validation/runner.h"

namespace scalecast::validation {

// One line of the summary: a table judged in one mode on one subset of its rows.
struct SummaryLine {
  std::string table;
  Mode mode = Mode::zero_shot;
  bool held_out_only = false;     // false: every predicted row
  std::vector<std::size_t> rows;  // the rows judged
  ErrorSummary errors;            // errors.worst indexes `rows`
  RankingTotal ranking;
  std::size_t measured_rows = 0, not_expressible = 0;
};

// zero-shot on all rows and on the held-out rows, calibrated on the held-out rows (modes run).
std::vector<SummaryLine> summary_lines(const ValidationResult& v);
// The line the regression gate and the baseline use: zero-shot on all rows, calibrated held-out.
const SummaryLine* gate_line(const std::vector<SummaryLine>& lines, const std::string& table,
                             Mode mode);

std::string subset_name(const SummaryLine& line);  // "all" or "held-out"

// format: "table" or "csv"; throws an InputError otherwise.
// Held-out rows of each (table, network): their MAPE zero-shot and calibrated, like with like.
struct NetworkComparison {
  std::string table, network;
  int rows = 0;
  double zero_shot_mape = 0, calibrated_mape = 0;
};
std::vector<NetworkComparison> network_comparison(const ValidationResult& v);

void write_summary(std::ostream& out, const ValidationResult& v, const std::string& format);
// One line per (row, mode run): measured and predicted samples/s, signed error, role, reason.
void write_rows_csv(std::ostream& out, const ValidationResult& v);
// "every scenario under the calibrated cluster file F: network.latency = 95us; ...".
std::string cluster_file_line(const ValidationResult& v);

}  // namespace scalecast::validation
