// Selecting a network's calibration rows by method and fitting them; nothing outside the subset
// reaches the residuals, so held-out rows cannot leak into the constants.
#include "validation/calibration_split.h"

#include <algorithm>

#include "sim/prediction/prediction.h"

namespace scalecast::validation {
namespace {

// Folds dealt in turn where a network's rows name fewer than three models (else one per model).
constexpr int kFolds = 5;

}  // namespace

const std::vector<std::string>& calibration_methods() {
  static const std::vector<std::string> methods = {"bsp-allreduce", "bsp-ps"};
  return methods;
}

bool is_calibration_row(const MeasuredRow& row) {
  const auto& m = calibration_methods();
  return std::find(m.begin(), m.end(), row.method) != m.end();
}

std::vector<std::pair<std::string, std::string>> networks(const std::vector<MeasuredRow>& rows) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& r : rows) {
    const std::pair<std::string, std::string> key{r.table, r.network};
    if (std::find(out.begin(), out.end(), key) == out.end()) out.push_back(key);
  }
  return out;
}

std::vector<std::size_t> calibration_rows(const std::vector<MeasuredRow>& rows,
                                          const std::vector<Case>& cases, const std::string& table,
                                          const std::string& network) {
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < rows.size(); ++i)
    if (rows[i].table == table && rows[i].network == network && is_calibration_row(rows[i]) &&
        cases.at(i).expressible)
      out.push_back(i);
  return out;
}

calibration::FitSample throughput_sample(const MeasuredRow& row, const Case& c,
                                         const std::vector<calibration::Parameter>& parameters,
                                         const Backend& backend) {
  const double measured = row.gpus * c.workload.batch_per_gpu / row.throughput;
  return {row.file + ":" + std::to_string(row.line), measured,
          [&row, &c, parameters, &backend](const Cluster& fit) {
            Scenario s = c.scenario;
            s.cluster = calibration::take_parameters(parameters, fit, s.cluster);
            return predict(s, c.workload, row.method, row.gpus, backend).row.iteration_s;
          },
          row.model};
}

GroupFit plan_group(const std::vector<MeasuredRow>& rows, const std::vector<Case>& cases, const std::string& table,
                    const std::string& network) {
  GroupFit g;
  g.table = table;
  g.network = network;
  g.rows = calibration_rows(rows, cases, table, network);
  if (g.rows.empty()) {
    g.reason = "no bsp-allreduce or bsp-ps rows on this network: calibrated = zero-shot";
    return g;
  }
  g.fit.cluster = cases[g.rows.front()].scenario.cluster;
  bool servers = false;
  for (std::size_t i : g.rows) servers = servers || rows[i].method == "bsp-ps";
  g.fit.parameters = calibration::transport_parameters(g.fit.cluster, servers);
  return g;
}

GroupFit fit_group(const std::vector<MeasuredRow>& rows, const std::vector<Case>& cases,
                   const std::string& table, const std::string& network, const Backend& backend) {
  GroupFit g = plan_group(rows, cases, table, network);
  if (g.rows.empty()) return g;
  const auto parameters = g.fit.parameters;
  std::vector<calibration::FitSample> samples;
  for (std::size_t i : g.rows) samples.push_back(throughput_sample(rows[i], cases[i], parameters, backend));
  g.fit = calibration::fit_carried_over(samples, g.fit.cluster, parameters, calibration::make_folds(samples, kFolds)).fit;
  g.fitted = true;
  return g;
}

}  // namespace scalecast::validation
