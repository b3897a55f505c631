// Two timelines of one schedule side by side (`scalecast compare`): per iteration, the steady
// state, and per communication task, with the error of the prediction against the measurement.
#pragma once

#include <string>
#include <vector>

#include "sim/formats/timeline_json.h"

namespace scalecast {

struct ComparisonRow {
  std::string kind;  // iteration, steady, comm
  int task = -1;
  std::string name, op;
  int iteration = -1;
  double bytes = 0, predicted_s = 0, measured_s = 0;
  double error_pct() const { return measured_s > 0 ? 100 * (predicted_s - measured_s) / measured_s : 0; }
};

// Throws an InputError naming both files where they are timelines of different schedules.
void check_same_schedule(const TimelineFile& predicted, const TimelineFile& measured,
                         const std::string& predicted_path, const std::string& measured_path);
// Rows per iteration, the steady state (iterations >= 2) and, with `tasks`, per communication
// task that both timelines ran.
std::vector<ComparisonRow> compare_timelines(const TimelineFile& predicted, const TimelineFile& measured,
                                             bool tasks);

}  // namespace scalecast
