// The shipped sharded-training rows predicted zero-shot: every expressible row gets a prediction, the groups cover
// every source, GPU and preset, report.md lists every row, and the MAPE stays at its measured figure.
#include "validation/sharded_training.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace scalecast::validation {
namespace {

// The zero-shot MAPE over the expressible rows, as measured at this commit (docs/MODEL.md,
// "Sharded data parallel"): a change to the model that moves
// it updates it here, with the reason, in the same commit. 41.19 -> 43.00: streaming layers move
// what their kernels move (sim/compute/streaming_traffic.h): residual adds, GELU and dropout cost
// less backward than the old twice-forward, norms more; these decoders come out 1-2% faster.
// 43.00 -> 42.54: the Llama rows' RMSNorm and rotary embedding run op by op where their source ran
// them eagerly (model.kernels, the table's `kernels` column). 42.54 -> 41.25: a product kernel
// takes a fixed 5 us and 0.5 us a wave beyond its arithmetic (sim/compute/kernel_times.h, fitted
// to XLA's H100 GEMM table), so these decoders' steps come out slower, nearer their published rate.
// 41.25 -> 19.03: llm-foundry's MPT rows ran the 2022 Triton FlashAttention (the table's
// `attention_kernel` column: flash1), at half FlashAttention-2's rate (kFirstGenerationAttentionSpeed).
// 19.03 -> 17.90: FSDP's passes over each unit's gradient before its reduce-scatter (assembled
// and pre-divided on the GPU, sim/schedules/sharding/sharded_schedule.cpp) lengthen each backward.
// 17.90 -> 17.60: fp8 linears cast their inputs, weights and output gradients (Transformer
// Engine's cast-transposes) and the output head stays bf16. 17.60 -> 17.80: torchtitan's per-op
// and every-2nd-block checkpointing make 7 more rows expressible, +18..+28% as its others.
// 17.80 -> 18.95: llm-foundry's loss is flash-attn's fused cross-entropy (the table's `loss`
// column: fused), a pass over bf16 logits instead of fp32 copies, so its small models come out
// faster still. 18.95 -> 20.40: MPT has no dropout (MPTConfig's pdrops default to 0), so its
// rows lose GPT-2's dropout kernels and come out faster again. 20.40 -> 20.25: torchtitan
// reduce-scatters its gradients in fp32 (the table's `reduce_precision` column).
constexpr double kMeasuredMapePct = 20.25;

const ShardedTrainingValidation& shipped() {
  static const ShardedTrainingValidation v =
      validate_sharded_training(std::string(SCALECAST_SOURCE_DIR) + "/validation/data/sharded-training");
  return v;
}

TEST(ShardedTraining, EveryExpressibleRowIsPredicted) {
  const ShardedTrainingValidation& v = shipped();
  EXPECT_GE(v.expressible(), 20);
  EXPECT_GE(v.sources(), 2);
  // Every one of them ran: the memory estimate refuses none (fused attention's s x s scores and
  // their gradient never reach memory).
  EXPECT_EQ(v.refused(), 0);
  for (const auto& c : v.cases) {
    if (!c.row.expressible) continue;
    EXPECT_GT(c.predicted, 0) << "line " << c.row.line;
    EXPECT_GT(c.compute_share, 0) << "line " << c.row.line;
    EXPECT_LE(c.compute_share, 1 + 1e-9) << "line " << c.row.line;
    EXPECT_GT(c.memory_gib, 0) << "line " << c.row.line;
  }
}

TEST(ShardedTraining, GroupsCoverEveryExpressibleRow) {
  const ShardedTrainingValidation& v = shipped();
  for (const char* what : {"source", "gpu", "gpus", "sharding", "checkpointing", "seq"}) {
    int rows = 0;
    for (const auto& g : v.by(what)) rows += g.rows;
    EXPECT_EQ(rows, v.expressible()) << what;
  }
  EXPECT_EQ(static_cast<int>(v.by("source").size()), v.sources());
  // GPU counts in numeric order.
  const auto counts = v.by("gpus");
  ASSERT_GE(counts.size(), 2u);
  EXPECT_EQ(counts.front().key, "8 GPUs");
  EXPECT_EQ(v.by("seq").front().key, "512 tokens");
  const auto worst = v.worst();
  ASSERT_EQ(static_cast<int>(worst.size()), v.expressible());
  EXPECT_GE(std::abs(worst.front()->error()), std::abs(worst.back()->error()));
}

TEST(ShardedTraining, TheReportListsEveryRow) {
  const ShardedTrainingValidation& v = shipped();
  const std::string md = sharded_training_markdown(v);
  for (const auto& c : v.cases) {
    const std::string line = c.row.expressible ? "| " + std::to_string(c.row.line) + " | " + c.row.source + " |"
                                               : "- line " + std::to_string(c.row.line) + " (";
    EXPECT_NE(md.find(line), std::string::npos) << line;
  }
}

TEST(ShardedTraining, ZeroShotMapeStaysAtItsMeasuredFigure) {
  EXPECT_NEAR(shipped().overall().mape_pct, kMeasuredMapePct, 0.5);
}

// predict's interval for these rows, whose compute comes from the model alone, holds the published
// figures at least as often as it claims; a narrower level holds fewer of them.
TEST(ShardedTraining, IntervalsHoldThePublishedRows) {
  const ShardedTrainingValidation& v = shipped();
  EXPECT_GE(v.coverage(90), 0.90);
  EXPECT_LT(v.coverage(20), v.coverage(90));
}

}  // namespace
}  // namespace scalecast::validation
