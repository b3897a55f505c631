// Tests of the ablation's figures and renderings: a table's zero-shot MAPE and ranking from a
// run, the text table with its units row, one CSV line per figure, and the Markdown section.
#include "validation/ablation.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

namespace scalecast::validation {
namespace {

// Two rows of table "t-2020" predicted zero-shot at +10% and -20%: MAPE 15%, ranking 1 of 1.
ValidationResult two_rows() {
  ValidationResult v;
  v.backend = "analytical";
  v.modes = {Mode::zero_shot};
  for (const auto& [method, measured, predicted] :
       {std::tuple{"wfbp-allreduce", 100.0, 110.0}, std::tuple{"mgwfbp", 200.0, 160.0}}) {
    MeasuredRow r;
    r.table = "t-2020";
    r.network = "n";
    r.model = "m";
    r.method = method;
    r.gpus = 8;
    r.throughput = measured;
    r.stddev = 1;
    v.rows.push_back(r);
    Case c;
    c.expressible = true;
    v.cases.push_back(c);
    v.calibration_row.push_back(false);
    v.zero_shot.push_back({true, predicted});
  }
  return v;
}

TEST(Ablation, FiguresOfARun) {
  const AblationRun r = ablation_run(two_rows(), "credit");
  ASSERT_EQ(r.tables.size(), 1u);
  EXPECT_NEAR(r.tables[0].zero_shot_mape, 15, 1e-9);
  EXPECT_LT(r.tables[0].calibrated_mape, 0);  // not run
  EXPECT_EQ(r.tables[0].ranking.pairs, 1);
  EXPECT_EQ(r.tables[0].ranking.agree, 1);
  EXPECT_FALSE(r.has_collectives);
}

TEST(Ablation, RendersTableCsvAndMarkdown) {
  Ablation a;
  a.backend = "analytical";
  a.runs = {ablation_run(two_rows(), ""), ablation_run(two_rows(), "credit")};
  a.runs[1].tables[0].zero_shot_mape = 17.25;
  std::ostringstream table, csv, md;
  write_ablation(table, a, "table");
  write_ablation(csv, a, "csv");
  write_ablation_markdown(md, a);
  EXPECT_NE(table.str().find("t zero-shot"), std::string::npos) << table.str();  // date dropped
  EXPECT_NE(table.str().find("held-out MAPE %"), std::string::npos);
  EXPECT_NE(table.str().find("none (full model)"), std::string::npos);
  EXPECT_NE(table.str().find("17.2"), std::string::npos);
  EXPECT_NE(csv.str().find("credit,t zero-shot,MAPE %,17.2,analytical"), std::string::npos) << csv.str();
  // A header line, then three figures per table per run.
  const std::string lines = csv.str();
  EXPECT_EQ(std::count(lines.begin(), lines.end(), '\n'), 1 + 2 * 3);
  EXPECT_NE(md.str().find("| credit | 17.2 | - | 100 |"), std::string::npos) << md.str();
  EXPECT_THROW(write_ablation(table, a, "json"), std::invalid_argument);
}

}  // namespace
}  // namespace scalecast::validation
