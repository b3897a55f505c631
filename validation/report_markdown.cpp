// The markdown report, one function per section; numbers in samples/s and percent, constants
// with their units.
#include "validation/report_markdown.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

#include "sim/report/text_table.h"
#include "validation/summary.h"

namespace scalecast::validation {
namespace {

void row(std::ostream& out, const std::vector<std::string>& cells) {
  out << '|';
  for (const auto& c : cells) out << ' ' << c << " |";
  out << '\n';
}

void header(std::ostream& out, const std::vector<std::string>& names) {
  row(out, names);
  out << '|';
  for (std::size_t i = 0; i < names.size(); ++i) out << (i == 0 ? " :-- |" : " --: |");
  out << '\n';
}

std::string pct(double value) { return fmt::format("{:+.1f}%", value); }

void summary_section(std::ostream& out, const ValidationResult& v) {
  out << "## Summary\n\nMAPE = mean over rows of |predicted - measured| / measured. *all*: every "
         "predicted row; *held-out*: rows outside the calibration subset (bsp-allreduce, bsp-ps), "
         "the only rows a calibrated prediction is judged on.\n\n";
  header(out, {"table", "mode", "rows", "predicted rows", "MAPE", "worst row", "worst error",
               "ranking (pairs agreeing)", "not expressible"});
  for (const auto& l : summary_lines(v)) {
    const std::string worst = l.rows.empty() ? "-" : row_label(v.rows[l.rows[l.errors.worst]]);
    const std::string rank = l.ranking.pairs == 0
                                 ? "-"
                                 : std::to_string(l.ranking.agree) + "/" +
                                       std::to_string(l.ranking.pairs) + " (" +
                                       fmt::format("{:.0f}%", 100 * l.ranking.share()) + ")";
    row(out, {l.table, to_string(l.mode), subset_name(l), std::to_string(l.rows.size()),
              fmt::format("{:.1f}%", l.errors.mape), worst, pct(l.errors.worst_error_pct), rank,
              std::to_string(l.not_expressible)});
  }
  out << '\n';
}

void fits_section(std::ostream& out, const ValidationResult& v) {
  if (!v.ran(Mode::calibrated)) return;
  out << "## Fitted constants\n\nPer (table, network), fitted by bounded Levenberg-Marquardt on the "
         "log of each constant against log(predicted / measured) iteration times of the calibration "
         "rows only (scalecast calibrate does the same). A constant the rows do not identify (its log "
         "standard error above 0.5) or do not depend on keeps its default, and says so.\n\n";
  for (const auto& g : v.fits) {
    out << "### " << g.table << " / " << g.network << "\n\n";
    if (!g.fitted) {
      out << g.reason << ".\n\n";
      continue;
    }
    header(out, {"constant", "meaning", "default", "fitted", "95% interval", "status"});
    for (std::size_t i = 0; i < g.fit.parameters.size(); ++i) {
      const calibration::Parameter& p = g.fit.parameters[i];
      const calibration::ParameterFit& r = g.fit.results[i];
      const bool moved = r.status == calibration::FitStatus::fitted;
      row(out, {p.key, p.description, calibration::scenario_value(p.quantity, r.start),
                calibration::scenario_value(p.quantity, r.value),
                moved ? calibration::scenario_value(p.quantity, r.low) + " .. " +
                            calibration::scenario_value(p.quantity, r.high)
                      : "",
                calibration::to_string(r.status)});
    }
    out << "\nFitted " << g.rows.size() << " rows (" << g.fit.evaluations << " evaluations); mean error "
        << fmt::format("{:.1f}%", calibration::mape(g.fit.start_residuals)) << " at the defaults, "
        << fmt::format("{:.1f}%", calibration::mape(g.fit.fitted_residuals)) << " fitted:\n\n";
    header(out, {"fitted row", "measured", "error at the defaults", "error fitted"});
    for (std::size_t k = 0; k < g.rows.size(); ++k) {
      const MeasuredRow& r = v.rows[g.rows[k]];
      // Throughput error from log(predicted / measured) iteration time.
      row(out, {row_label(r), fmt::format("{:.5g}", r.throughput), pct(100 * (std::exp(-g.fit.start_residuals[k]) - 1)),
                pct(100 * (std::exp(-g.fit.fitted_residuals[k]) - 1))});
    }
    out << '\n';
  }
}

void groups_section(std::ostream& out, const ValidationResult& v) {
  out << "## Error by group\n\n";
  header(out, {"mode", "table", "grouped by", "group", "rows", "MAPE", "worst row", "error"});
  for (Mode mode : v.modes) {
    const auto rows = v.evaluated_rows(mode, false);
    const auto points = v.points(mode, rows);
    for (const char* column : {"network", "model", "method"}) {
      for (const auto& g : group_errors(points, column)) {
        row(out, {to_string(mode), g.table, column, g.key, std::to_string(g.summary.rows),
                  fmt::format("{:.1f}%", g.summary.mape), row_label(v.rows[rows[g.summary.worst]]),
                  pct(g.summary.worst_error_pct)});
      }
    }
  }
  out << '\n';
}

void worst_section(std::ostream& out, const ValidationResult& v) {
  out << "## Worst rows\n\nThe ten largest |errors| of each mode (calibrated: held-out rows).\n\n";
  header(out, {"mode", "table", "row", "measured", "predicted", "error"});
  for (Mode mode : v.modes) {
    auto rows = v.evaluated_rows(mode, false);
    auto err = [&](std::size_t i) {
      return std::abs(v.predictions(mode)[i].throughput / v.rows[i].throughput - 1);
    };
    std::stable_sort(rows.begin(), rows.end(),
                     [&](std::size_t a, std::size_t b) { return err(a) > err(b); });
    rows.resize(std::min<std::size_t>(rows.size(), 10));
    for (std::size_t i : rows) {
      const double p = v.predictions(mode)[i].throughput;
      row(out, {to_string(mode), v.rows[i].table, row_label(v.rows[i]),
                fmt::format("{:.5g}", v.rows[i].throughput), fmt::format("{:.5g}", p),
                pct(100 * (p / v.rows[i].throughput - 1))});
    }
  }
  out << '\n';
}

void ranking_section(std::ostream& out, const ValidationResult& v) {
  out << "## Ranking agreement\n\nAt each (model, network, GPU count): method pairs whose "
         "measured throughputs differ by more than the sum of their standard deviations, and how "
         "many of them the predictions order the same way (a predicted tie does not agree). "
         "Pairs within the spread are skipped. Zero-shot over all rows; calibrated over held-out "
         "rows.\n\n";
  header(out, {"mode", "table", "model", "network", "GPUs", "pairs", "agreeing", "skipped"});
  for (Mode mode : v.modes) {
    for (const auto& g : ranking_groups(v.points(mode, v.evaluated_rows(mode, false)))) {
      if (g.pairs + g.skipped == 0) continue;
      row(out, {to_string(mode), g.table, g.model, g.network, std::to_string(g.gpus),
                std::to_string(g.pairs), std::to_string(g.agree), std::to_string(g.skipped)});
    }
  }
  out << '\n';
}

void not_expressible_section(std::ostream& out, const ValidationResult& v) {
  out << "## Rows not expressible\n\n";
  const auto missing = v.not_expressible();
  if (missing.empty()) {
    out << "None: every measured row was predicted.\n\n";
    return;
  }
  header(out, {"table", "row", "measured", "scenario", "reason"});
  for (std::size_t i : missing)
    row(out, {v.rows[i].table, row_label(v.rows[i]), fmt::format("{:.5g}", v.rows[i].throughput),
              v.cases[i].scenario_path, v.cases[i].reason});
  out << '\n';
}

void rows_section(std::ostream& out, const ValidationResult& v) {
  out << "## Every row\n\nThroughput in samples/s. Role: *calibration* rows are fitted in "
         "calibrated mode (their calibrated error is in-sample), *held-out* rows are not.\n\n";
  std::vector<std::string> names = {"table", "network", "model",    "method",
                                    "GPUs",  "role",    "measured", "stddev"};
  for (Mode mode : v.modes) {
    names.push_back(to_string(mode));
    names.push_back("error");
  }
  header(out, names);
  for (std::size_t i = 0; i < v.rows.size(); ++i) {
    const MeasuredRow& r = v.rows[i];
    std::vector<std::string> cells = {r.table,
                                      r.network,
                                      r.model,
                                      r.method,
                                      std::to_string(r.gpus),
                                      !v.cases[i].expressible
                                          ? "not expressible"
                                          : (v.calibration_row[i] ? "calibration" : "held-out"),
                                      fmt::format("{:.5g}", r.throughput),
                                      r.has_stddev() ? fmt::format("{:.3g}", r.stddev) : "-"};
    for (Mode mode : v.modes) {
      const RowPrediction& p = v.predictions(mode)[i];
      cells.push_back(p.predicted ? fmt::format("{:.5g}", p.throughput) : "-");
      cells.push_back(p.predicted ? pct(100 * (p.throughput / r.throughput - 1)) : "-");
    }
    row(out, cells);
  }
  out << '\n';
}

// The nccl-tests outputs predicted zero-shot, and the NCCL model calibrated on parts of them.
void collectives_section(std::ostream& out, const ValidationResult& v) {
  if (v.collectives.clusters.empty()) return;
  out << "## Collectives (nccl-tests)\n\nEvery measured nccl-tests output of validation/data/nccl-tests predicted by the "
         "NCCL model that also times training's collectives; the plots `collective-*.png` draw bus bandwidth "
         "against size per cluster (points measured, line predicted).\n\n```\n";
  write_collective_summary(out, v.collectives);
  write_holdout_summary(out, v.collective_holdouts);
  out << "```\n\n";
}

void plots_section(std::ostream& out, const PlotOutcome& plots) {
  out << "## Plots\n\n";
  if (!plots.problem.empty()) out << "**" << plots.problem << ".**\n\n";
  for (const auto& image : plots.images) out << "![" << image << "](" << image << ")\n\n";
}

}  // namespace

void write_report_markdown(std::ostream& out, const ValidationResult& v, const PlotOutcome& plots) {
  out << "# scalecast validation report\n\nBackend `" << v.backend << "`; " << v.rows.size()
      << " measured rows in " << table_names(v.rows).size()
      << " tables. Each row is predicted from its testbed's scenario (validation/data/testbeds.csv)"
         " at the row's single-GPU throughput, method and GPU count. Throughput is samples/s "
         "(images or sequences per second); error = (predicted - measured) / measured.\n\n";
  if (!v.cluster_file.empty()) out << "Predicted with " << cluster_file_line(v) << ".\n\n";
  summary_section(out, v);
  fits_section(out, v);
  groups_section(out, v);
  worst_section(out, v);
  ranking_section(out, v);
  not_expressible_section(out, v);
  collectives_section(out, v);
  rows_section(out, v);
  plots_section(out, plots);
}

}  // namespace scalecast::validation
