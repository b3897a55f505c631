// Runs the ablation (one validation per mechanism switched off, through the scenario key
// switched_off) and renders it as a text table, CSV or a Markdown section of the report.
#include "validation/ablation.h"

#include <fmt/format.h>
#include <sstream>
#include <stdexcept>

#include "sim/catalogs/mechanisms.h"
#include "sim/io/input_error.h"
#include "sim/report/text_table.h"
#include "validation/summary.h"

namespace scalecast::validation {
namespace {

std::string mape_text(double mape) { return mape < 0 ? "-" : fmt::format("{:.1f}", mape); }

std::string ranking_text(const RankingTotal& r) {
  return r.pairs > 0 ? fmt::format("{:.0f}", 100 * r.share()) : "-";
}

// A table's name without its date ("ddl-benchmarks-2020-05-29" -> "ddl-benchmarks"), for headers.
std::string short_name(const std::string& table) {
  std::string name = table;
  while (true) {
    const auto dash = name.rfind('-');
    if (dash == std::string::npos || dash + 1 == name.size()) return name;
    const std::string tail = name.substr(dash + 1);
    if (tail.find_first_not_of("0123456789") != std::string::npos) return name;
    name = name.substr(0, dash);
  }
}

std::string run_name(const AblationRun& r) { return r.mechanism.empty() ? "none (full model)" : r.mechanism; }

// Column headers and units, then one row of cells per run.
struct Grid {
  std::vector<std::string> headers, units;
  std::vector<std::vector<std::string>> rows;
};

Grid grid(const Ablation& a) {
  Grid g;
  g.headers = {"switched off"};
  g.units = {""};
  if (a.runs.empty()) return g;
  for (const TableFigures& t : a.runs.front().tables) {
    const std::string name = short_name(t.table);
    g.headers.insert(g.headers.end(), {name + " zero-shot", name + " calibrated", name + " ranking"});
    g.units.insert(g.units.end(), {"MAPE %", "held-out MAPE %", "% of pairs"});
  }
  const bool collectives = a.runs.front().has_collectives;
  if (collectives) {
    g.headers.insert(g.headers.end(), {"nccl-tests latency", "nccl-tests bandwidth"});
    g.units.insert(g.units.end(), {"< 64 KiB MAPE %", ">= 1 MiB MAPE %"});
  }
  for (const AblationRun& r : a.runs) {
    std::vector<std::string> cells = {run_name(r)};
    for (const TableFigures& t : r.tables)
      cells.insert(cells.end(), {mape_text(t.zero_shot_mape), mape_text(t.calibrated_mape), ranking_text(t.ranking)});
    if (collectives)
      cells.insert(cells.end(), {fmt::format("{:.1f}", r.collectives.latency_pct),
                                 fmt::format("{:.1f}", r.collectives.bandwidth_pct)});
    g.rows.push_back(std::move(cells));
  }
  return g;
}

}  // namespace

TableFigures table_figures(const ValidationResult& v, const std::string& table) {
  TableFigures f;
  f.table = table;
  const auto lines = summary_lines(v);
  if (const SummaryLine* z = gate_line(lines, table, Mode::zero_shot)) {
    f.zero_shot_mape = z->errors.mape;
    f.ranking = z->ranking;
  }
  if (const SummaryLine* c = gate_line(lines, table, Mode::calibrated)) f.calibrated_mape = c->errors.mape;
  return f;
}

AblationRun ablation_run(const ValidationResult& v, const std::string& mechanism) {
  AblationRun r;
  r.mechanism = mechanism;
  for (const auto& table : table_names(v.rows)) r.tables.push_back(table_figures(v, table));
  r.has_collectives = !v.collectives.clusters.empty();
  r.collectives = collective_means(v.collectives);
  return r;
}

Ablation run_ablation(const ValidationOptions& options, const ValidationResult& full, std::ostream& progress) {
  Ablation a;
  a.backend = full.backend;
  a.runs.push_back(ablation_run(full, ""));
  for (const MechanismInfo& m : mechanisms()) {
    progress << "validate: ablation, " << m.name << " switched off ..." << std::flush;
    ValidationOptions o = options;
    o.collective_holdouts = false;
    o.cluster.sets.push_back({"switched_off=[" + m.name + "]", "--ablation"});
    std::ostringstream quiet;  // each run's own progress lines
    a.runs.push_back(ablation_run(run_validation(o, quiet), m.name));
    progress << " done\n";
  }
  return a;
}

void write_ablation(std::ostream& out, const Ablation& a, const std::string& format) {
  const Grid g = grid(a);
  if (format == "csv") {
    out << "switched_off,column,unit,value,backend\n";
    for (const auto& row : g.rows)
      for (std::size_t i = 1; i < row.size(); ++i)
        out << row[0] << ',' << g.headers[i] << ',' << g.units[i] << ',' << row[i] << ',' << a.backend << '\n';
    return;
  }
  if (format != "table") throw InputError("unknown format '" + format + "' (known: table, csv)");
  out << "\nablation: each mechanism switched off in turn (backend " << a.backend
      << "; ranking: zero-shot, share of method pairs in the measured order; nccl-tests: mean over "
         "clusters)\n";
  TextTable t(g.headers, g.units);
  for (const auto& row : g.rows) t.add_row(row);
  t.write(out);
}

void write_ablation_markdown(std::ostream& out, const Ablation& a) {
  const Grid g = grid(a);
  out << "\n## Ablation: each mechanism switched off in turn\n\n"
      << "Backend " << a.backend << ". MAPE of throughput per table (zero-shot over every row, calibrated over "
      << "the held-out rows), the zero-shot ranking agreement, and the nccl-tests means over clusters. "
      << "What each mechanism models and its source: `scalecast mechanisms`.\n\n|";
  for (std::size_t i = 0; i < g.headers.size(); ++i)
    out << ' ' << g.headers[i] << (g.units[i].empty() ? "" : " (" + g.units[i] + ")") << " |";
  out << "\n|";
  for (std::size_t i = 0; i < g.headers.size(); ++i) out << (i == 0 ? " :-- |" : " --: |");
  out << '\n';
  for (const auto& row : g.rows) {
    out << '|';
    for (const auto& cell : row) out << ' ' << cell << " |";
    out << '\n';
  }
}

}  // namespace scalecast::validation
