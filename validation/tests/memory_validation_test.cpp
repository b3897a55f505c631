// The memory estimate against published configurations that ran (issue 43): every expressible row
// is predicted to fit, the measured peaks are within 15%, no row is dropped silently.
#include <gtest/gtest.h>

#include <cmath>
#include <iostream>

#include "validation/memory_validation.h"

namespace scalecast::validation {
namespace {

const MemoryValidation& published() {
  static const MemoryValidation v = validate_memory(std::string(SCALECAST_SOURCE_DIR) + "/validation/data/memory-fit");
  return v;
}

TEST(MemoryValidation, EveryRowIsExpressedOrHasAReason) {
  const MemoryValidation& v = published();
  EXPECT_EQ(v.cases.size(), 115u);
  for (const auto& c : v.cases) EXPECT_TRUE(c.expressible || !c.reason.empty()) << "line " << c.line;
  EXPECT_GE(v.expressible(), 30);
  std::cout << memory_markdown(v);
}

TEST(MemoryValidation, EveryExpressibleRowThatRanIsPredictedToFit) {
  const MemoryValidation& v = published();
  for (const auto& c : v.cases) {
    if (!c.expressible) continue;
    EXPECT_TRUE(c.fit.fits()) << "line " << c.line << " refused";
    EXPECT_TRUE(c.central_fits()) << "line " << c.line << ": " << memory_summary(c.fit);
  }
}

TEST(MemoryValidation, MeasuredPeaksWithinFifteenPercent) {
  const MemoryValidation& v = published();
  EXPECT_GE(v.measured(), 3);
  for (const auto& c : v.cases) {
    if (!c.expressible || c.measured_gib <= 0) continue;
    EXPECT_LT(std::abs(c.error()), 0.15) << "line " << c.line << ": predicted " << c.predicted_gib << " GiB, measured "
                                         << c.measured_gib;
  }
}

}  // namespace
}  // namespace scalecast::validation
