// Selecting a network's calibration rows by method and fitting them; nothing outside the subset
// reaches the residuals, so held-out rows cannot leak into the constants.
#include "validation/calibration_split.h"

#include <algorithm>

namespace scalecast::validation {

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

GroupFit fit_group(const std::vector<MeasuredRow>& rows, const std::vector<Case>& cases,
                   const std::string& table, const std::string& network, const Backend& backend) {
  GroupFit g;
  g.table = table;
  g.network = network;
  g.rows = calibration_rows(rows, cases, table, network);
  if (g.rows.empty()) {
    g.reason = "no bsp-allreduce or bsp-ps rows on this network: calibrated = zero-shot";
    return g;
  }
  std::vector<calibration::CalibrationPoint> points;
  for (std::size_t i : g.rows)
    points.push_back(
        {&cases[i].scenario, &cases[i].workload, rows[i].method, rows[i].gpus, rows[i].throughput});
  g.fit = calibration::fit_network(points, backend);
  g.fitted = true;
  return g;
}

}  // namespace scalecast::validation
