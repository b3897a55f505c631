// Sweep sizes and their range syntax.
#include <gtest/gtest.h>

#include "executor/sweep.h"
#include "sim/io/input_error.h"
#include "sim/io/units.h"

namespace scalecast::executor {
namespace {

TEST(Sweep, SizesDoubleFromMinToMax) {
  SweepOptions o;
  std::tie(o.min_bytes, o.max_bytes) = parse_size_range("1KB:64KB");
  EXPECT_EQ(sweep_sizes(o), (std::vector<double>{1000, 2000, 4000, 8000, 16000, 32000, 64000}));
  std::tie(o.min_bytes, o.max_bytes) = parse_size_range("1KiB:4KiB");
  EXPECT_EQ(sweep_sizes(o), (std::vector<double>{1024, 2048, 4096}));
}

TEST(Sweep, AllreduceSizesAreWholeFloats) {
  SweepOptions o;
  o.min_bytes = 1;
  o.max_bytes = 10;
  o.factor = 3;
  EXPECT_EQ(sweep_sizes(o), (std::vector<double>{4, 8}));
  o.op = SweepOp::sendrecv;
  EXPECT_EQ(sweep_sizes(o), (std::vector<double>{1, 3, 9}));
}

TEST(Sweep, SmallSizesRepeatUntilTheyTimeAsManyBytesAsTheLargeOnes) {
  SweepOptions o;
  o.iterations = 10;
  EXPECT_EQ(sweep_iterations(o, 1024), 10);  // off by default
  o.max_iterations = 100;
  EXPECT_EQ(sweep_iterations(o, 1024), 100);        // 10 x 1 MiB / 1 KiB = 10240, capped
  EXPECT_EQ(sweep_iterations(o, 262144), 40);       // 10 x 1 MiB / 256 KiB
  EXPECT_EQ(sweep_iterations(o, 300000), 35);       // rounded up
  EXPECT_EQ(sweep_iterations(o, 1048576), 10);
  EXPECT_EQ(sweep_iterations(o, 64 * 1048576.0), 10);
}

TEST(Sweep, RefusesBadRanges) {
  SweepOptions o;
  o.min_bytes = 10;
  o.max_bytes = 1;
  EXPECT_THROW(sweep_sizes(o), InputError);
  o.max_bytes = 100;
  o.factor = 1;
  EXPECT_THROW(sweep_sizes(o), InputError);
  EXPECT_THROW(parse_size_range("1KB"), InputError);
  EXPECT_THROW(parse_size_range("1KB:lots"), InputError);
}

}  // namespace
}  // namespace scalecast::executor
