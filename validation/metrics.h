// Error metrics of predictions against measurements: signed error per row, MAPE and worst row
// over any set of rows, and ranking agreement of methods at each (model, network, GPU count).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace scalecast::validation {

// One predicted, measured row.
struct Point {
  std::string table, network, model, method;
  int gpus = 0;
  double measured = 0;   // samples/s
  double stddev = -1;    // samples/s; < 0 unknown (counted as 0 by the ranking rule)
  double predicted = 0;  // samples/s
};

// 100 * (predicted - measured) / measured.
double error_pct(const Point& p);

struct ErrorSummary {
  std::size_t rows = 0;
  double mape = 0;             // mean of |error_pct| (%)
  std::size_t worst = 0;       // index of the row with the largest |error| (when rows > 0)
  double worst_error_pct = 0;  // its signed error
};

ErrorSummary summarize(const std::vector<Point>& points);

// Rows grouped by one column within each table: "table", "network", "model" or "method".
struct GroupError {
  std::string table, key;
  ErrorSummary summary;  // `worst` indexes the input points
};
std::vector<GroupError> group_errors(const std::vector<Point>& points, const std::string& column);

// Method pairs at one (table, model, network, GPU count). A pair counts only when its measured
// throughputs differ by more than the sum of their standard deviations; it agrees when the
// predictions order it the same way (a tie in the predictions does not agree).
struct RankingGroup {
  std::string table, model, network;
  int gpus = 0;
  int pairs = 0;  // counted pairs
  int agree = 0;
  int skipped = 0;  // pairs within the measurements' spread
};
std::vector<RankingGroup> ranking_groups(const std::vector<Point>& points);

struct RankingTotal {
  int pairs = 0, agree = 0, skipped = 0;
  double share() const { return pairs > 0 ? static_cast<double>(agree) / pairs : 0; }
};
RankingTotal ranking_total(const std::vector<RankingGroup>& groups);

}  // namespace scalecast::validation
