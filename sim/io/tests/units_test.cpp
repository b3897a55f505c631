// Tests of strict unit parsing and formatting: prefixes, bits vs bytes, and rejected spellings
// such as "10Gbs" or a bare number where a unit is required.
#include <gtest/gtest.h>

#include "sim/io/input_error.h"
#include "sim/io/units.h"

namespace scalecast::units {
namespace {

TEST(Units, Durations) {
  EXPECT_DOUBLE_EQ(parse_duration("25us"), 25e-6);
  EXPECT_DOUBLE_EQ(parse_duration("1.5ms"), 1.5e-3);
  EXPECT_DOUBLE_EQ(parse_duration("2 s"), 2.0);
  EXPECT_DOUBLE_EQ(parse_duration("100ns"), 100e-9);
  EXPECT_THROW(parse_duration("25"), InputError);
  EXPECT_THROW(parse_duration("25 parsecs"), InputError);
  EXPECT_THROW(parse_duration("us"), InputError);
}

TEST(Units, RatesDistinguishBitsAndBytes) {
  EXPECT_DOUBLE_EQ(parse_rate("10Gbps"), 1.25e9);
  EXPECT_DOUBLE_EQ(parse_rate("100Gbit/s"), 12.5e9);
  EXPECT_DOUBLE_EQ(parse_rate("12GB/s"), 12e9);
  EXPECT_DOUBLE_EQ(parse_rate("1GiB/s"), 1024.0 * 1024 * 1024);
  EXPECT_THROW(parse_rate("10Gbs"), InputError);
  EXPECT_THROW(parse_rate("10"), InputError);
  EXPECT_THROW(parse_rate("ten Gbps"), InputError);
}

TEST(Units, Sizes) {
  EXPECT_DOUBLE_EQ(parse_bytes("4MB"), 4e6);
  EXPECT_DOUBLE_EQ(parse_bytes("25MiB"), 25.0 * 1024 * 1024);
  EXPECT_DOUBLE_EQ(parse_bytes("536870912"), 536870912.0);
  EXPECT_THROW(parse_bytes("1.5"), InputError);
  EXPECT_THROW(parse_bytes("4Mb"), InputError);
  EXPECT_DOUBLE_EQ(parse_flops("15.7TFLOPS"), 15.7e12);
}

TEST(Units, ErrorSaysWhatWasExpected) {
  try {
    parse_rate("10Gbs");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("10Gbps"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("'10Gbs'"), std::string::npos) << e.what();
  }
}

TEST(Units, Formatting) {
  EXPECT_EQ(format_seconds(0.0123), "12.3 ms");
  EXPECT_EQ(format_seconds(2.5), "2.5 s");
  EXPECT_EQ(format_rate(1.25e9), "1.25 GB/s");
  EXPECT_EQ(format_bytes(25e6), "25 MB");
}

}  // namespace
}  // namespace scalecast::units
