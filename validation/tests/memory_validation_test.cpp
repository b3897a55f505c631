// The memory estimate against published configurations that ran (issue 43): every expressible row
// is predicted to fit, the measured peaks of unsharded runs are within 15% and of sharded runs
// within their sources' spread, no row is dropped silently.
#include <gtest/gtest.h>

#include <cmath>
#include <iostream>
#include <stdexcept>
#include <string>

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

TEST(MemoryValidation, MeasuredPeaksOfUnshardedRunsWithinFifteenPercent) {
  const MemoryValidation& v = published();
  EXPECT_GE(v.measured(), 3);
  for (const auto& c : v.cases) {
    if (!c.expressible || c.measured_gib <= 0 || c.fit.shard_gpus > 1) continue;
    EXPECT_LT(std::abs(c.error()), 0.15) << "line " << c.line << ": predicted " << c.predicted_gib << " GiB, measured "
                                         << c.measured_gib;
  }
}

const MemoryCase& at_line(int line) {
  for (const auto& c : published().cases)
    if (c.line == line) return c;
  throw std::runtime_error("no line " + std::to_string(line));
}

// llm-foundry's MPT rows (lines 104-116): the zoo's gpt at each row's shape, without dropout,
// FSDP over 8 GPUs, bf16 units gathered from fp32 shards; all ran, so all must fit. A row without
// its shape columns is refused with a reason, not guessed.
TEST(MemoryValidation, MptRowsAreExpressedByTheirShape) {
  for (int line = 104; line <= 116; ++line) {
    const MemoryCase& c = at_line(line);
    ASSERT_TRUE(c.expressible) << "line " << line << ": " << c.reason;
    EXPECT_EQ(c.fit.shard_gpus, 8) << "line " << line;
    EXPECT_TRUE(c.central_fits()) << "line " << line;
  }
  // MPT-7B at 6 x 2048 tokens on 80 GB without checkpointing needs more than MPT-7B at 12 x 2048
  // with it on 40 GB.
  EXPECT_GT(at_line(104).fit.needed_bytes(), at_line(112).fit.needed_bytes());
}

// Sharded runs (FSDP2 over 8 to 64 GPUs, torchtitan): the same configuration (Llama 3 8B, batch
// 1 of 8192 tokens, per-op checkpointing, FSDP2 over 8 GPUs) peaks at 47.65 GiB with the loss run
// eagerly and 33.71 GiB on a later torchtitan that compiles it; one estimate of both misses each
// by 17% at best, and torchtitan's fp32 reduce-scatter holds the root unit's 1.05 billion
// gradients in fp32 on top (the B200 rows +35..+37%). Each within 40%, on average within 25%,
// and the compiled loss lower.
TEST(MemoryValidation, MeasuredPeaksOfShardedRunsWithinTheirSpread) {
  const MemoryValidation& v = published();
  int rows = 0;
  double sum = 0;
  for (const auto& c : v.cases) {
    if (!c.expressible || c.measured_gib <= 0 || c.fit.shard_gpus == 1) continue;
    ++rows, sum += std::abs(c.error());
    EXPECT_LT(std::abs(c.error()), 0.40) << "line " << c.line << ": predicted " << c.predicted_gib << " GiB, measured "
                                         << c.measured_gib;
  }
  EXPECT_GE(rows, 8);
  EXPECT_LT(sum / rows, 0.25);
  const MemoryCase &eager = at_line(98), &compiled = at_line(101);
  ASSERT_TRUE(eager.expressible && compiled.expressible);
  EXPECT_EQ(eager.fit.shard_gpus, 8);
  EXPECT_LT(compiled.predicted_gib, eager.predicted_gib - 4);
}

}  // namespace
}  // namespace scalecast::validation
