// Reading, writing and checking the recorded validation figures: the gate compares this run's
// MAPE per table and mode with baseline.csv and names every figure it compared.
#include "validation/baseline.h"

#include <algorithm>
#include <fmt/format.h>

#include "sim/report/text_table.h"
#include "sim/io/csv.h"
#include "sim/io/input_error.h"
#include "validation/summary.h"

namespace scalecast::validation {

std::vector<BaselineEntry> read_baseline(const std::string& path) {
  const CsvFile csv(path);
  std::vector<BaselineEntry> out;
  for (const CsvRecord& r : csv.records()) {
    BaselineEntry e;
    e.table = r.non_empty("table");
    e.mode = r.non_empty("mode");
    if (e.mode != "zero-shot" && e.mode != "calibrated") r.fail("mode", "zero-shot or calibrated");
    e.backend = r.non_empty("backend");
    e.rows = static_cast<std::size_t>(r.integer("rows", 1, 1000000));
    e.mape_pct = r.number("mape_pct", Bound::between(0, 1e6));
    e.line = r.line();
    out.push_back(e);
  }
  return out;
}

void write_baseline(std::ostream& out, const ValidationResult& v) {
  const auto lines = summary_lines(v);
  out << "table,mode,backend,rows,mape_pct\n";
  for (const CollectiveFigure& f : collective_figures(v.collectives))
    out << f.name << ",zero-shot," << v.backend << ',' << f.sizes << ',' << fmt::format("{:.2f}", f.mape_pct) << '\n';
  for (const auto& table : table_names(v.rows)) {
    for (Mode mode : v.modes) {
      const SummaryLine* l = gate_line(lines, table, mode);
      if (l == nullptr || l->rows.empty()) continue;
      out << table << ',' << to_string(mode) << ',' << v.backend << ',' << l->rows.size() << ','
          << fmt::format("{:.2f}", l->errors.mape) << '\n';
    }
  }
}

void require_figures(const std::vector<BaselineEntry>& baseline, const std::string& backend,
                     const std::vector<Mode>& modes, const std::string& path) {
  for (const auto& e : baseline)
    for (Mode m : modes)
      if (e.backend == backend && e.mode == to_string(m)) return;
  throw InputError(InputKind::file, path + ": expected figures for backend " + backend +
                  " and the modes run, got none");
}

BaselineCheck check_baseline(const std::vector<BaselineEntry>& baseline, const ValidationResult& v,
                             const std::string& path, double allowed_points) {
  require_figures(baseline, v.backend, v.modes, path);
  const auto lines = summary_lines(v);
  const auto figures = collective_figures(v.collectives);
  BaselineCheck check;
  for (const auto& e : baseline) {
    if (e.backend != v.backend || !v.ran(parse_mode(e.mode))) continue;
    std::string text = e.table + " " + e.mode + ": ";
    if (e.table.starts_with("nccl-tests/")) {
      // A collective's figure: its regime's MAPE over the sizes recorded.
      const auto f = std::find_if(figures.begin(), figures.end(), [&](const CollectiveFigure& c) { return c.name == e.table; });
      const double limit = e.mape_pct + allowed_points;
      const bool ok = f != figures.end() && f->mape_pct <= limit && f->sizes >= e.rows;
      text += f == figures.end() ? "not predicted (recorded " + fmt::format("{:.2f}%", e.mape_pct) + ")"
                                 : "MAPE " + fmt::format("{:.2f}%", f->mape_pct) + " over " + std::to_string(f->sizes) +
                                       " sizes (recorded " + fmt::format("{:.2f}%", e.mape_pct) + ", limit " +
                                       fmt::format("{:.2f}%", limit) + ")";
      check.lines.push_back(text + (ok ? ": ok" : ": WORSE"));
      check.passed = check.passed && ok;
      continue;
    }
    const SummaryLine* l = gate_line(lines, e.table, parse_mode(e.mode));
    bool ok = true;
    if (l == nullptr || l->rows.empty()) {
      ok = false;
      text += "no predicted rows (recorded " + fmt::format("{:.2f}%", e.mape_pct) + " over " +
              std::to_string(e.rows) + " rows)";
    } else {
      const double limit = e.mape_pct + allowed_points;
      ok = l->errors.mape <= limit && l->rows.size() >= e.rows;
      text += "MAPE " + fmt::format("{:.2f}%", l->errors.mape) + " over " + std::to_string(l->rows.size()) +
              " rows (recorded " + fmt::format("{:.2f}%", e.mape_pct) + " over " + std::to_string(e.rows) +
              ", limit " + fmt::format("{:.2f}%", limit) + ")";
      if (l->rows.size() < e.rows) text += ": fewer rows predicted than recorded";
    }
    check.lines.push_back(text + (ok ? ": ok" : ": WORSE"));
    check.passed = check.passed && ok;
  }
  return check;
}

}  // namespace scalecast::validation
