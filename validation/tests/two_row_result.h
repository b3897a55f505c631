// A validation result for tests of what is built on one: two rows of one table predicted
// zero-shot, bsp-ps at +10% (100 -> 110) and wfbp-ps at -20% (200 -> 160): MAPE 15%.
#pragma once

#include <string>
#include <tuple>

#include "validation/calibration_split.h"
#include "validation/runner.h"

namespace scalecast::validation::testing {

inline ValidationResult two_row_result(const std::string& table = "t") {
  ValidationResult v;
  v.backend = "analytical";
  v.modes = {Mode::zero_shot};
  for (const auto& [method, measured, predicted] :
       {std::tuple{"bsp-ps", 100.0, 110.0}, std::tuple{"wfbp-ps", 200.0, 160.0}}) {
    MeasuredRow r;
    r.table = table;
    r.network = "n";
    r.model = "m";
    r.method = method;
    r.gpus = 8;
    r.throughput = measured;
    r.stddev = 1;
    v.rows.push_back(r);
    Case c;
    c.expressible = true;
    v.cases.push_back(c);
    v.calibration_row.push_back(is_calibration_row(r));
    v.zero_shot.push_back({true, predicted});
  }
  return v;
}

}  // namespace scalecast::validation::testing
