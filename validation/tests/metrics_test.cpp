// Tests of the validation metrics on hand-made rows: signed error, MAPE and worst row, grouping,
// and ranking agreement with the standard-deviation rule.
#include "validation/metrics.h"

#include <gtest/gtest.h>

namespace scalecast::validation {
namespace {

Point point(std::string method, int gpus, double measured, double stddev, double predicted,
            std::string model = "m", std::string network = "n") {
  return {"t",  std::move(network), std::move(model), std::move(method),
          gpus, measured,           stddev,           predicted};
}

TEST(Metrics, ErrorIsSignedAndRelativeToTheMeasurement) {
  EXPECT_DOUBLE_EQ(error_pct(point("a", 4, 200, 0, 250)), 25.0);
  EXPECT_DOUBLE_EQ(error_pct(point("a", 4, 200, 0, 150)), -25.0);
}

TEST(Metrics, MapeAndWorstRow) {
  // Errors +10%, -30%, +20%: MAPE 20%, worst the second row at -30%.
  const std::vector<Point> pts = {point("a", 4, 100, 0, 110), point("b", 4, 100, 0, 70),
                                  point("c", 4, 50, 0, 60)};
  const ErrorSummary s = summarize(pts);
  EXPECT_EQ(s.rows, 3u);
  EXPECT_NEAR(s.mape, 20.0, 1e-12);
  EXPECT_EQ(s.worst, 1u);
  EXPECT_NEAR(s.worst_error_pct, -30.0, 1e-12);
  EXPECT_EQ(summarize({}).rows, 0u);
}

TEST(Metrics, GroupsByColumnWithinTheTable) {
  const std::vector<Point> pts = {point("a", 4, 100, 0, 110), point("a", 8, 100, 0, 130),
                                  point("b", 4, 100, 0, 95)};
  const auto groups = group_errors(pts, "method");
  ASSERT_EQ(groups.size(), 2u);
  EXPECT_EQ(groups[0].key, "a");
  EXPECT_NEAR(groups[0].summary.mape, 20.0, 1e-12);
  EXPECT_EQ(groups[0].summary.worst, 1u);  // index into the input points
  EXPECT_EQ(groups[1].key, "b");
  EXPECT_EQ(groups[1].summary.worst, 2u);
  EXPECT_THROW(group_errors(pts, "colour"), std::logic_error);
}

TEST(Metrics, RankingCountsOnlyPairsBeyondTheirSpread) {
  // a=100+-5, b=108+-2 (gap 8 > 7: counted), c=103+-1 (a-c gap 3 <= 6: skipped; b-c 5 > 3).
  // Predictions order b > a (agrees) and c > b (disagrees with measured b > c).
  const std::vector<Point> pts = {point("a", 4, 100, 5, 100), point("b", 4, 108, 2, 110),
                                  point("c", 4, 103, 1, 120)};
  const auto groups = ranking_groups(pts);
  ASSERT_EQ(groups.size(), 1u);
  EXPECT_EQ(groups[0].pairs, 2);
  EXPECT_EQ(groups[0].agree, 1);
  EXPECT_EQ(groups[0].skipped, 1);
}

TEST(Metrics, RankingTreatsTiesAsDisagreementAndUnknownSpreadAsZero) {
  const std::vector<Point> pts = {point("a", 4, 100, -1, 90), point("b", 4, 101, -1, 90)};
  const auto groups = ranking_groups(pts);
  ASSERT_EQ(groups.size(), 1u);
  EXPECT_EQ(groups[0].pairs, 1);
  EXPECT_EQ(groups[0].agree, 0);
}

TEST(Metrics, RankingGroupsByModelNetworkAndGpus) {
  const std::vector<Point> pts = {
      point("a", 4, 100, 0, 100),          point("b", 4, 200, 0, 150),
      point("a", 8, 100, 0, 100),          point("b", 8, 200, 0, 50),
      point("a", 4, 100, 0, 100, "other"), point("b", 4, 200, 0, 300, "other")};
  const auto groups = ranking_groups(pts);
  ASSERT_EQ(groups.size(), 3u);
  const RankingTotal total = ranking_total(groups);
  EXPECT_EQ(total.pairs, 3);
  EXPECT_EQ(total.agree, 2);
  EXPECT_NEAR(total.share(), 2.0 / 3.0, 1e-12);
  EXPECT_EQ(RankingTotal{}.share(), 0.0);
}

}  // namespace
}  // namespace scalecast::validation
