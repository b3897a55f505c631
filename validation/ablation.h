// The ablation: the validation run again with each switchable mechanism (sim/catalogs/mechanisms.h) off
// in turn, and per table the figures that show what each mechanism buys.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "validation/collectives.h"
#include "validation/runner.h"

namespace scalecast::validation {

// One table's figures in one run: MAPE (%) zero-shot over every row and calibrated over the
// held-out rows (negative: that mode was not run), and the zero-shot ranking.
struct TableFigures {
  std::string table;
  double zero_shot_mape = -1, calibrated_mape = -1;
  RankingTotal ranking;
};

struct AblationRun {
  std::string mechanism;  // "" for the full model
  std::vector<TableFigures> tables;
  CollectiveMeans collectives;
  bool has_collectives = false;
};

struct Ablation {
  std::string backend;
  std::vector<AblationRun> runs;  // the full model first, then one per mechanism switched off
};

TableFigures table_figures(const ValidationResult& v, const std::string& table);
AblationRun ablation_run(const ValidationResult& v, const std::string& mechanism);

// Runs the validation once per mechanism with it switched off (on top of `options`); `full` is
// the run with every mechanism on. One progress line per run goes to `progress`.
Ablation run_ablation(const ValidationOptions& options, const ValidationResult& full, std::ostream& progress);

// An aligned table with a units row ("table"), or one CSV line per run, table and figure ("csv").
void write_ablation(std::ostream& out, const Ablation& a, const std::string& format);
void write_ablation_markdown(std::ostream& out, const Ablation& a);

}  // namespace scalecast::validation
