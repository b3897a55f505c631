// Summary lines and their two renderings (aligned table with a units row, CSV), and rows.csv
// with one line per measured row and mode.
#include "validation/summary.h"

#include <fmt/format.h>
#include <stdexcept>

#include "calibration/calibrated_cluster.h"
#include "sim/io/input_error.h"
#include "sim/report/csv_field.h"
#include "sim/report/text_table.h"
#include "sim/io/csv.h"
#include "validation/interval_coverage.h"

namespace scalecast::validation {
namespace {

SummaryLine make_line(const ValidationResult& v, const std::string& table, Mode mode,
                      bool held_out_only) {
  SummaryLine line;
  line.table = table;
  line.mode = mode;
  line.held_out_only = held_out_only || mode == Mode::calibrated;
  for (std::size_t i : v.evaluated_rows(mode, held_out_only))
    if (v.rows[i].table == table) line.rows.push_back(i);
  const std::vector<Point> points = v.points(mode, line.rows);
  line.errors = summarize(points);
  line.ranking = ranking_total(ranking_groups(points));
  for (std::size_t i = 0; i < v.rows.size(); ++i) {
    if (v.rows[i].table != table) continue;
    ++line.measured_rows;
    if (!v.cases[i].expressible) ++line.not_expressible;
  }
  return line;
}

std::string ranking_text(const RankingTotal& r) {
  if (r.pairs == 0) return "-";
  return std::to_string(r.agree) + "/" + std::to_string(r.pairs) + " = " +
         fmt::format("{:.0f}%", 100 * r.share());
}

}  // namespace

std::string subset_name(const SummaryLine& line) { return line.held_out_only ? "held-out" : "all"; }

std::vector<SummaryLine> summary_lines(const ValidationResult& v) {
  std::vector<SummaryLine> lines;
  for (const auto& table : table_names(v.rows)) {
    if (v.ran(Mode::zero_shot)) {
      lines.push_back(make_line(v, table, Mode::zero_shot, false));
      lines.push_back(make_line(v, table, Mode::zero_shot, true));
    }
    if (v.ran(Mode::calibrated)) lines.push_back(make_line(v, table, Mode::calibrated, true));
  }
  return lines;
}

const SummaryLine* gate_line(const std::vector<SummaryLine>& lines, const std::string& table,
                             Mode mode) {
  for (const auto& l : lines)
    if (l.table == table && l.mode == mode && l.held_out_only == (mode == Mode::calibrated))
      return &l;
  return nullptr;
}

std::string cluster_file_line(const ValidationResult& v) {
  return "every scenario under the calibrated cluster file " + v.cluster_file + ": " +
         calibration::joined_values(v.cluster_values);
}

void write_summary(std::ostream& out, const ValidationResult& v, const std::string& format) {
  const auto lines = summary_lines(v);
  if (format == "csv") {
    out << "table,mode,rows,measured_rows,predicted_rows,not_expressible,mape_pct,worst_row,"
           "worst_error_pct,ranking_agree,ranking_pairs,ranking_skipped,backend,cluster_file\n";
    for (const auto& l : lines) {
      const std::string worst = l.rows.empty() ? "" : row_label(v.rows[l.rows[l.errors.worst]]);
      out << l.table << ',' << to_string(l.mode) << ',' << subset_name(l) << ',' << l.measured_rows
          << ',' << l.rows.size() << ',' << l.not_expressible << ',' << fmt::format("{:.2f}", l.errors.mape)
          << ',' << csv_field(worst) << ',' << fmt::format("{:.2f}", l.errors.worst_error_pct) << ','
          << l.ranking.agree << ',' << l.ranking.pairs << ',' << l.ranking.skipped << ','
          << v.backend << ',' << csv_field(v.cluster_file) << '\n';
    }
    return;
  }
  if (format != "table")
    throw InputError("unknown format '" + format + "' (known: table, csv)");
  if (!v.cluster_file.empty()) out << cluster_file_line(v) << "\n\n";
  TextTable t({"table", "mode", "rows", "predicted", "MAPE", "worst row", "worst error", "ranking",
               "not expressible"},
              {"", "", "", "rows", "%", "", "%", "pairs agreeing", "rows"});
  for (const auto& l : lines) {
    const std::string worst = l.rows.empty() ? "-" : row_label(v.rows[l.rows[l.errors.worst]]);
    t.add_row({l.table, to_string(l.mode), subset_name(l), std::to_string(l.rows.size()),
               fmt::format("{:.1f}", l.errors.mape), worst, fmt::format("{:+.1f}", l.errors.worst_error_pct),
               ranking_text(l.ranking), std::to_string(l.not_expressible)});
  }
  t.write(out);
  out << "backend " << v.backend << "; throughput in samples/s (images or sequences per second); "
      << "error = (predicted - measured) / measured; calibrated rows are held out from the fit\n";
  const auto coverage = interval_coverage(v, kCoverageLevelPct);
  out << "\n"
      << fmt::format("{:g}", kCoverageLevelPct) << "% prediction intervals (predict --interval "
      << fmt::format("{:g}", kCoverageLevelPct) << "): measured rows inside\n";
  TextTable cover({"table", "mode", "rows", "inside", "coverage"}, {"", "", "", "rows", "%"});
  for (const auto& l : coverage)
    cover.add_row({l.table, to_string(l.mode), l.mode == Mode::calibrated ? "held-out" : "all",
                   std::to_string(l.inside) + "/" + std::to_string(l.rows),
                   fmt::format("{:.1f}", 100 * l.share())});
  cover.write(out);
  const auto networks = network_comparison(v);
  if (networks.empty()) return;
  out << "\nheld-out rows per network, like with like:\n";
  TextTable n({"table", "network", "rows", "zero-shot", "calibrated", "calibration"},
              {"", "", "", "MAPE %", "MAPE %", ""});
  for (const auto& c : networks)
    n.add_row({c.table, c.network, std::to_string(c.rows), fmt::format("{:.1f}", c.zero_shot_mape),
               fmt::format("{:.1f}", c.calibrated_mape),
               c.calibrated_mape > c.zero_shot_mape + 1e-9 ? "WORSE" : "better or equal"});
  n.write(out);
}

std::vector<NetworkComparison> network_comparison(const ValidationResult& v) {
  std::vector<NetworkComparison> out;
  if (!v.ran(Mode::zero_shot) || !v.ran(Mode::calibrated)) return out;
  const auto held_out = v.evaluated_rows(Mode::calibrated, true);
  for (const auto& [table, network] : networks(v.rows)) {
    std::vector<std::size_t> rows;
    for (std::size_t i : held_out)
      if (v.rows[i].table == table && v.rows[i].network == network) rows.push_back(i);
    if (rows.empty()) continue;
    out.push_back({table, network, static_cast<int>(rows.size()), summarize(v.points(Mode::zero_shot, rows)).mape,
                   summarize(v.points(Mode::calibrated, rows)).mape});
  }
  return out;
}

void write_rows_csv(std::ostream& out, const ValidationResult& v) {
  out << "table,network,model,method,gpus,batch_per_gpu,mode,role,measured,stddev,predicted,"
         "error_pct,unit,backend,scenario,reason,cluster_file\n";
  for (Mode mode : v.modes) {
    for (std::size_t i = 0; i < v.rows.size(); ++i) {
      const MeasuredRow& r = v.rows[i];
      const Case& c = v.cases[i];
      const RowPrediction& p = v.predictions(mode)[i];
      const std::string role = !c.expressible             ? "not-expressible"
                               : !v.calibration_row[i]    ? "held-out"
                               : mode == Mode::calibrated ? "fitted"
                                                          : "calibration";
      out << r.table << ',' << r.network << ',' << r.model << ',' << r.method << ',' << r.gpus
          << ',' << r.batch_per_gpu << ',' << to_string(mode) << ',' << role << ','
          << fmt::format("{:.6g}", r.throughput) << ',' << (r.has_stddev() ? fmt::format("{:.6g}", r.stddev) : "")
          << ',' << (p.predicted ? fmt::format("{:.6g}", p.throughput) : "") << ','
          << (p.predicted ? fmt::format("{:.3f}", 100 * (p.throughput - r.throughput) / r.throughput) : "")
          << ",samples/s," << v.backend << ',' << csv_field(c.scenario_path) << ','
          << csv_field(c.reason) << ',' << csv_field(v.cluster_file) << '\n';
    }
  }
}

}  // namespace scalecast::validation
