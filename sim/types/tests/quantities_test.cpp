// Seconds, bytes and rates: arithmetic keeps the unit (bytes over a rate is a time), and each
// operation is the one double operation it stands for, so typed formulas give the same figures.
#include "sim/types/quantities.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <type_traits>

#include "sim/network/nccl/nccl_units.h"

namespace scalecast {
namespace {

TEST(Quantities, ArithmeticKeepsTheUnit) {
  const Rate link(12.5e9);  // 100 Gbit/s
  const Seconds t = Bytes(25e6) / link;
  static_assert(std::is_same_v<decltype(Bytes(1) / Rate(1)), Seconds>);
  static_assert(std::is_same_v<decltype(Rate(1) * Seconds(1)), Bytes>);
  static_assert(std::is_same_v<decltype(Rate(1) / Rate(1)), double>);
  static_assert(!std::is_convertible_v<double, Rate> && !std::is_convertible_v<Seconds, Rate>);
  EXPECT_DOUBLE_EQ(t.s(), 2e-3);
  EXPECT_DOUBLE_EQ((link * t).bytes(), 25e6);
  EXPECT_DOUBLE_EQ((Seconds(1e-6) + t * 2).s(), 1e-6 + 4e-3);
  EXPECT_DOUBLE_EQ(link / Rate(25e9), 0.5);
  EXPECT_LT(Rate(), link);
  EXPECT_EQ(std::min(link, Rate(1e9)), Rate(1e9));
}

TEST(Quantities, TypedFormulasGiveTheDoublesOfTheUntypedOnes) {
  // A ring step, as the closed forms write it: the same rounding, bit for bit.
  const double latency = 7.3e-6, bandwidth = 23.7e9, bytes = 3.1e7;
  const int p = 24;
  const double untyped = 2.0 * (p - 1) * (latency + bytes / (p * bandwidth));
  const double typed = 2.0 * (p - 1) * (Seconds(latency) + Bytes(bytes) / (Rate(bandwidth) * p)).s();
  EXPECT_EQ(typed, untyped);
}

TEST(Quantities, NcclUnitsConvertInOnePlace) {
  EXPECT_DOUBLE_EQ(collectives::nccl::gb_per_s(Rate(50e9)), 50);
  EXPECT_DOUBLE_EQ(collectives::nccl::microseconds(Seconds(2.5e-6)), 2.5);
  EXPECT_DOUBLE_EQ(collectives::nccl::from_microseconds(40).s(), 40e-6);
}

}  // namespace
}  // namespace scalecast
