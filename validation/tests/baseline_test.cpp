// Tests of the regression gate and the summary: figures within one point pass, worse ones and
// lost rows fail, and a baseline without figures for the run is an input error.
#include "validation/baseline.h"

#include <gtest/gtest.h>

#include <sstream>

#include "sim/io/csv.h"
#include "sim/io/input_error.h"
#include "validation/summary.h"
#include "validation/tests/two_row_result.h"

namespace scalecast::validation {
namespace {

BaselineEntry entry(double mape, std::size_t rows, std::string backend = "analytical") {
  return {"t", "zero-shot", std::move(backend), rows, mape, 2};
}

TEST(Baseline, WrittenFiguresAreTheGateFigures) {
  std::ostringstream out;
  write_baseline(out, testing::two_row_result());
  EXPECT_EQ(out.str(), "table,mode,backend,rows,mape_pct\nt,zero-shot,analytical,2,15.00\n");
}

TEST(Baseline, PassesWithinOnePointAndFailsBeyond) {
  const ValidationResult v = testing::two_row_result();
  EXPECT_TRUE(check_baseline({entry(14.5, 2)}, v, "b.csv").passed);
  EXPECT_TRUE(check_baseline({entry(14.0, 2)}, v, "b.csv").passed);
  const BaselineCheck worse = check_baseline({entry(13.9, 2)}, v, "b.csv");
  EXPECT_FALSE(worse.passed);
  ASSERT_EQ(worse.lines.size(), 1u);
  EXPECT_NE(worse.lines[0].find("MAPE 15.00% over 2 rows (recorded 13.90% over 2, limit 14.90%)"),
            std::string::npos)
      << worse.lines[0];
}

TEST(Baseline, FailsWhenRowsGoMissing) {
  EXPECT_FALSE(check_baseline({entry(15, 3)}, testing::two_row_result(), "b.csv").passed);
}

TEST(Baseline, NoFiguresForTheBackendIsAnInputError) {
  EXPECT_THROW(check_baseline({entry(15, 2, "simgrid")}, testing::two_row_result(), "b.csv"), InputError);
}

TEST(Summary, HeldOutExcludesTheCalibrationSubset) {
  const auto lines = summary_lines(testing::two_row_result());
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(subset_name(lines[0]), "all");
  EXPECT_NEAR(lines[0].errors.mape, 15.0, 1e-12);
  EXPECT_EQ(subset_name(lines[1]), "held-out");
  ASSERT_EQ(lines[1].rows.size(), 1u);  // bsp-ps is a calibration row
  EXPECT_NEAR(lines[1].errors.mape, 20.0, 1e-12);
  std::ostringstream csv;
  write_summary(csv, testing::two_row_result(), "csv");
  EXPECT_NE(
      csv.str().find("t,zero-shot,all,2,2,0,15.00,m n wfbp-ps 8 GPUs,-20.00,1,1,0,analytical"),
      std::string::npos)
      << csv.str();
  std::ostringstream table;
  EXPECT_THROW(write_summary(table, testing::two_row_result(), "json"), InputError);
}

}  // namespace
}  // namespace scalecast::validation
