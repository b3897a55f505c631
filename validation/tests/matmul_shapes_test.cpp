// The GEMM-by-shape table: rows become products on catalog GPUs or say why not, a malformed row is
// refused with its file and line, and the shipped table's error per arch and precision is pinned.
#include "sim/io/input_error.h"
#include "validation/matmul_shapes.h"

#include "sim/io/csv.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

namespace scalecast::validation {
namespace {

std::string table_dir(const std::string& name, const std::string& rows) {
  const std::string dir = ::testing::TempDir() + "/" + name;
  std::filesystem::create_directories(dir);
  std::ofstream(dir + "/xla-default-matmul-table.csv") << "arch,b,m,n,k,dtype,flops_per_s\n" << rows;
  return dir;
}

TEST(MatmulShapes, RowsBecomeProductsOrSayWhyNot) {
  const MatmulShapeValidation v = validate_matmul_shapes(table_dir("matmul-shapes-rows",
      "sm_90,1,4096,4096,4096,bf16xbf16->bf16,783328793548203\n"
      "sm_100_B200,2,256,512,1024,f32xf32->f32,100000000000000\n"
      "sm_90,1,256,256,256,f8e4m3fnxf8e4m3fn->bf16,6000000000000\n"
      "sm_80,1,256,256,256,bf16xbf16->bf16,6000000000000\n"
      "sm_90,1,256,256,256,s8xs8->s32,6000000000000\n"));
  ASSERT_EQ(v.cases.size(), 5u);
  EXPECT_EQ(v.cases[0].line, 2);
  EXPECT_EQ(v.cases[0].gpu, "h100");
  EXPECT_EQ(v.cases[0].precision, "bf16");
  EXPECT_NEAR(v.cases[0].measured_s, 2.0 * 4096 * 4096 * 4096 / 783328793548203, 1e-15);
  ASSERT_TRUE(v.cases[0].scored());
  EXPECT_NEAR(v.cases[0].error(), 0, 0.1);  // a large square product runs near the measured rate
  EXPECT_EQ(v.cases[1].gpu, "b200");
  EXPECT_EQ(v.cases[1].precision, "tf32");
  EXPECT_NEAR(v.cases[1].measured_s, 2.0 * 2 * 256 * 512 * 1024 / 1e14, 1e-15);
  EXPECT_NE(v.cases[2].reason.find("fp8"), std::string::npos);
  EXPECT_NE(v.cases[3].reason.find("sm_80"), std::string::npos);
  EXPECT_NE(v.cases[4].reason.find("s8xs8->s32"), std::string::npos);
  ASSERT_EQ(v.groups().size(), 2u);
  EXPECT_EQ(v.groups().at("sm_90 bf16").rows, 1);
}

TEST(MatmulShapes, AMalformedRowIsRefusedWithItsFileAndLine) {
  const std::string dir = table_dir("matmul-shapes-bad",
                                    "sm_90,1,256,256,256,bf16xbf16->bf16,6000000000000\n"
                                    "sm_90,1,256,two,256,bf16xbf16->bf16,6000000000000\n");
  try {
    validate_matmul_shapes(dir);
    FAIL() << "the row with n = 'two' was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("xla-default-matmul-table.csv:3"), std::string::npos) << e.what();
  }
  const std::string zero = table_dir("matmul-shapes-zero", "sm_90,1,256,256,256,bf16xbf16->bf16,0\n");
  EXPECT_THROW(validate_matmul_shapes(zero), InputError);
}

// The product model's error on the shipped table, as measured now: a change to product timing
// that moves these must update them, saying why.
TEST(MatmulShapes, TheShippedTableIsPredictedPerArchAndPrecision) {
  const MatmulShapeValidation v =
      validate_matmul_shapes(std::string(SCALECAST_SOURCE_DIR) + "/validation/data/matmul-shapes");
  EXPECT_EQ(v.cases.size(), 3750u);
  const auto groups = v.groups();
  ASSERT_EQ(groups.size(), 4u);
  const std::map<std::string, double> pinned_mape = {
      {"sm_90 bf16", 7.3}, {"sm_90 tf32", 23.6}, {"sm_100_B200 bf16", 7.4}, {"sm_100_B200 tf32", 14.5}};
  for (const auto& [key, mape] : pinned_mape) {
    ASSERT_TRUE(groups.contains(key)) << key;
    EXPECT_EQ(groups.at(key).rows, 375) << key;
    EXPECT_NEAR(groups.at(key).mape, mape, 0.05) << key;
  }
}

}  // namespace
}  // namespace scalecast::validation
