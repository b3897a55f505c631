// Validation results to and from a part file's JSON: predictions, fitted constants with their
// intervals and status, residuals; every number written as the shortest text of the same double.
#include "validation/shard_results.h"

#include <limits>

namespace scalecast::validation {

namespace {

Bound finite() {
  Bound b = Bound::between(std::numeric_limits<double>::lowest(), std::numeric_limits<double>::max());
  b.text = "(finite)";
  return b;
}

std::vector<double> numbers(const JsonReader& j) {
  std::vector<double> out;
  for (std::size_t i = 0; i < j.size(); ++i) out.push_back(j.item(i).number(finite()));
  return out;
}

}  // namespace

nlohmann::json row_prediction_json(const RowPrediction& p) {
  return {{"predicted", p.predicted}, {"throughput", p.throughput}};
}

RowPrediction read_row_prediction(const JsonReader& j) {
  j.check_keys({"predicted", "throughput"});
  return {j.require("predicted").boolean(), j.require("throughput").number(finite())};
}

nlohmann::json group_json(const GroupFit& g, const std::vector<std::pair<std::size_t, RowPrediction>>& calibrated) {
  nlohmann::json out = {{"table", g.table}, {"network", g.network}, {"fitted", g.fitted}};
  out["parameters"] = nlohmann::json::array();
  for (std::size_t i = 0; i < g.fit.results.size(); ++i) {
    const calibration::ParameterFit& r = g.fit.results[i];
    out["parameters"].push_back({{"key", g.fit.parameters[i].key},
                                 {"start", r.start},
                                 {"value", r.value},
                                 {"low", r.low},
                                 {"high", r.high},
                                 {"status", calibration::to_string(r.status)}});
  }
  out["start_residuals"] = g.fit.start_residuals;
  out["fitted_residuals"] = g.fit.fitted_residuals;
  out["evaluations"] = g.fit.evaluations;
  out["calibrated"] = nlohmann::json::array();
  for (const auto& [row, p] : calibrated) out["calibrated"].push_back({{"row", row}, {"prediction", row_prediction_json(p)}});
  return out;
}

std::vector<std::pair<std::size_t, RowPrediction>> read_group(const JsonReader& j, GroupFit& g, std::size_t rows) {
  j.check_keys({"table", "network", "fitted", "parameters", "start_residuals", "fitted_residuals", "evaluations",
                "calibrated"});
  if (j.require("table").string() != g.table || j.require("network").string() != g.network)
    j.require("table").fail("the group " + g.table + " / " + g.network + " of this run");
  g.fitted = j.require("fitted").boolean();
  const JsonReader parameters = j.require("parameters");
  if (parameters.size() != (g.fitted ? g.fit.parameters.size() : 0))
    parameters.fail(std::to_string(g.fitted ? g.fit.parameters.size() : 0) + " fitted constants");
  for (std::size_t i = 0; i < parameters.size(); ++i) {
    const JsonReader p = parameters.item(i);
    p.check_keys({"key", "start", "value", "low", "high", "status"});
    if (p.require("key").string() != g.fit.parameters[i].key) p.require("key").fail("'" + g.fit.parameters[i].key + "'");
    calibration::ParameterFit r;
    r.start = p.require("start").number(finite());
    r.value = p.require("value").number(finite());
    r.low = p.require("low").number(finite());
    r.high = p.require("high").number(finite());
    using calibration::FitStatus;
    r.status = p.require("status").enumeration("a fit status", {FitStatus::fitted, FitStatus::at_bound, FitStatus::not_identified,
                                                                FitStatus::no_effect, FitStatus::not_carried_over});
    g.fit.results.push_back(r);
  }
  g.fit.start_residuals = numbers(j.require("start_residuals"));
  g.fit.fitted_residuals = numbers(j.require("fitted_residuals"));
  g.fit.evaluations = j.require("evaluations").integer(0, std::numeric_limits<int>::max());
  if (g.fitted) g.fit.cluster = calibration::apply_fit(g.fit, g.fit.cluster);
  std::vector<std::pair<std::size_t, RowPrediction>> out;
  const JsonReader calibrated = j.require("calibrated");
  for (std::size_t i = 0; i < calibrated.size(); ++i) {
    const JsonReader c = calibrated.item(i);
    c.check_keys({"row", "prediction"});
    const auto row = static_cast<std::size_t>(c.require("row").integer(0, static_cast<int>(rows) - 1));
    out.emplace_back(row, read_row_prediction(c.require("prediction")));
  }
  return out;
}

}  // namespace scalecast::validation
