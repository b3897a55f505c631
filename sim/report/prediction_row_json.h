// A prediction row as a shard's part file carries it: every figure the backend produced, numbers
// written so that they read back to the same double, so a merge prints what one process would.
#pragma once

#include <nlohmann/json.hpp>

#include "sim/io/json_reader.h"
#include "sim/prediction/prediction.h"

namespace scalecast {

// What predict() sets (names, hardware, counts and the figures); the settings, overrides, memory
// and interval that commands add from their own plan are left out.
nlohmann::json predicted_row_json(const PredictionRow& row);
// Throws an InputError naming the source and key of a missing or mistyped value.
PredictionRow read_predicted_row(const JsonReader& json);

}  // namespace scalecast
