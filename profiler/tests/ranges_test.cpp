// Range reconstruction: pairing start/end records by id, parents per thread, innermost
// lookup by time, and the warnings for unmatched ends.
#include "profiler/ranges.h"

#include <gtest/gtest.h>

#include "profiler/tests/log_builder.h"

namespace scalecast::profiler {
namespace {

using testing::LogBuilder;

TEST(Ranges, PairsByIdAndNestsPerThread) {
  LogBuilder b;
  b.push(1, 0, "iteration");
  b.push(1, 10, "outer");
  b.push(2, 12, "other thread");
  b.push(1, 15, "inner");
  b.pop(1, 20);
  b.pop(2, 25);
  b.pop(1, 30);
  b.pop(1, 100);
  std::vector<std::string> warnings;
  const RangeIndex index(b.log, "iteration", warnings);
  EXPECT_TRUE(warnings.empty());
  const auto& r = index.ranges();
  ASSERT_EQ(r.size(), 4u);
  EXPECT_EQ(r[1].name, "outer");
  EXPECT_EQ(r[1].parent, 0);
  EXPECT_EQ(r[2].parent, -1);  // thread 2 has nothing around it
  EXPECT_EQ(r[3].name, "inner");
  EXPECT_EQ(r[3].parent, 1);
  EXPECT_EQ(index.innermost(1, 16), 3);
  EXPECT_EQ(index.innermost(1, 20), 1);  // ends are exclusive
  EXPECT_EQ(index.innermost(1, 50), 0);
  EXPECT_EQ(index.innermost(1, 100), -1);
  EXPECT_EQ(index.innermost(2, 16), 2);
  EXPECT_EQ(index.innermost(3, 16), -1);
  EXPECT_EQ(index.iteration_at(99), 0);
  EXPECT_EQ(index.iteration_at(100), -1);
}

TEST(Ranges, StartEndRangesAndUnmatchedEnds) {
  LogBuilder b;
  b.log.range_starts.push_back(RangeStart{40, 1, 5, "my domain", "load"});
  b.log.range_ends.push_back(RangeEnd{40, 3, 50});  // ended on another thread
  b.log.range_ends.push_back(RangeEnd{41, 1, 60});  // never started
  std::vector<std::string> warnings;
  const RangeIndex index(b.log, "iteration", warnings);
  ASSERT_EQ(index.ranges().size(), 1u);
  EXPECT_EQ(index.ranges()[0].end, 50u);
  EXPECT_EQ(index.ranges()[0].domain, "my domain");
  EXPECT_EQ(index.innermost(1, 30), 0);  // belongs to the thread that started it
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("1 NVTX range end records have no open range"), std::string::npos);
}

TEST(Ranges, ZeroLengthRangeContainsNothing) {
  LogBuilder b;
  b.push(1, 10, "outer");
  b.push(1, 20, "empty");
  b.pop(1, 20);
  b.pop(1, 30);
  std::vector<std::string> warnings;
  const RangeIndex index(b.log, "iteration", warnings);
  EXPECT_EQ(index.ranges()[1].parent, 0);
  EXPECT_EQ(index.innermost(1, 20), 0);
}

}  // namespace
}  // namespace scalecast::profiler
