// Output of prediction rows for people (aligned table with a units row) and for scripts (CSV
// with the DESIGN.md columns, JSON). Numbers are printed the same way every run.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/prediction/prediction.h"

namespace scalecast {

// The value a row's settings give `key` ("" when it sets none).
std::string setting(const PredictionRow& row, const std::string& key);

// The table adds a column for each setting that differs between rows (a sweep's keys); CSV and
// JSON carry every setting, and the GPU, fabric, network rate and transport of each row.
void write_table(std::ostream& out, const std::vector<PredictionRow>& rows);
void write_csv(std::ostream& out, const std::vector<PredictionRow>& rows);
void write_json(std::ostream& out, const std::vector<PredictionRow>& rows);

// The CSV columns of a set of rows (the interval's when they have one, a column per setting
// key), for reports that add columns of their own in front.
class PredictionCsv {
 public:
  explicit PredictionCsv(const std::vector<PredictionRow>& rows);
  std::string header() const;
  std::string line(const PredictionRow& row) const;

 private:
  bool interval_;
  std::vector<std::string> keys_;
};

// One row's JSON object (without its interval).
nlohmann::ordered_json prediction_json(const PredictionRow& row);

// "table", "csv" or "json"; throws an InputError otherwise.
void write_rows(std::ostream& out, const std::vector<PredictionRow>& rows, const std::string& format);

}  // namespace scalecast
