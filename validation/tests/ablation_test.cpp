// Tests of the ablation's figures and renderings: a table's zero-shot MAPE and ranking from a
// run, the text table with its units row, one CSV line per figure, and the Markdown section.
#include "sim/io/input_error.h"
#include "validation/ablation.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

#include "validation/tests/two_row_result.h"

namespace scalecast::validation {
namespace {

TEST(Ablation, FiguresOfARun) {
  const AblationRun r = ablation_run(testing::two_row_result("t-2020"), "credit");
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
  a.runs = {ablation_run(testing::two_row_result("t-2020"), ""), ablation_run(testing::two_row_result("t-2020"), "credit")};
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
  EXPECT_THROW(write_ablation(table, a, "json"), InputError);
}

}  // namespace
}  // namespace scalecast::validation
