// Interval coverage on the measured tables: the check that predict --interval's bands are as
// wide as the errors they claim to bound, no more, no less.
#include "validation/interval_coverage.h"

#include <cmath>

namespace scalecast::validation {
namespace {

const GroupFit* fit_of(const ValidationResult& v, const MeasuredRow& row) {
  for (const GroupFit& g : v.fits)
    if (g.table == row.table && g.network == row.network) return &g;
  return nullptr;
}

}  // namespace

Uncertainty row_uncertainty(const ValidationResult& v, Mode mode, std::size_t row) {
  if (mode == Mode::zero_shot) return default_uncertainty();
  const GroupFit* g = fit_of(v, v.rows[row]);
  if (!g || !g->fitted) return default_uncertainty();
  int free = 0;
  for (const auto& r : g->fit.results) free += r.status == calibration::FitStatus::fitted;
  const auto& residuals = g->fit.fitted_residuals;
  const int dof = static_cast<int>(residuals.size()) - free;
  if (dof < 1) return default_uncertainty();
  double squares = 0;
  for (double r : residuals) squares += r * r;
  return calibrated_uncertainty(std::sqrt(squares / dof), "residuals of the " + g->network + " fit");
}

std::vector<CoverageLine> interval_coverage(const ValidationResult& v, double level_pct) {
  std::vector<CoverageLine> out;
  auto line_of = [&](const std::string& table, Mode mode) -> CoverageLine& {
    for (auto& l : out)
      if (l.table == table && l.mode == mode) return l;
    return out.emplace_back(CoverageLine{table, mode});
  };
  for (const Mode mode : v.modes) {
    const auto& predictions = v.predictions(mode);
    for (std::size_t i : v.evaluated_rows(mode, mode == Mode::calibrated)) {
      const MeasuredRow& row = v.rows[i];
      CoverageLine& line = line_of(row.table, mode);
      const IntervalFactors f = interval_factors(row_uncertainty(v, mode, i), level_pct);
      ++line.rows;
      line.inside += f.holds_throughput(predictions[i].throughput, row.throughput);
    }
  }
  return out;
}

}  // namespace scalecast::validation
