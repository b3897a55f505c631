// What a shard of `validate` carries in its part file: a zero-shot row's prediction, and a
// calibration group's fit with its rows' calibrated predictions; read back to the same doubles.
#pragma once

#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/io/json_reader.h"
#include "validation/runner.h"

namespace scalecast::validation {

nlohmann::json row_prediction_json(const RowPrediction& prediction);
RowPrediction read_row_prediction(const JsonReader& json);

// The fit's figures (the planned group supplies its rows, cluster and parameters) and the
// calibrated predictions of the group's rows, as (row index, prediction).
nlohmann::json group_json(const GroupFit& group, const std::vector<std::pair<std::size_t, RowPrediction>>& calibrated);
// Fills `planned` (plan_group's) with the fit read back; returns the calibrated predictions.
// Throws an InputError where the part does not match the plan (other parameters or rows).
std::vector<std::pair<std::size_t, RowPrediction>> read_group(const JsonReader& json, GroupFit& planned,
                                                              std::size_t rows);

}  // namespace scalecast::validation
