// Published sharded-training rows as scenarios: the shapes, presets, GPUs and networks the shipped rows map to,
// the reasons the others are left out, and a malformed field named by file, line and column.
#include "sim/io/input_error.h"
#include "validation/sharded_training_rows.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>

#include "sim/io/csv.h"

namespace scalecast::validation {
namespace {

const std::vector<ShardedRow>& shipped() {
  static const std::vector<ShardedRow> rows =
      read_sharded_rows(std::string(SCALECAST_SOURCE_DIR) + "/validation/data/sharded-training");
  return rows;
}

const ShardedRow& at_line(int line) {
  for (const auto& r : shipped())
    if (r.line == line) return r;
  throw std::out_of_range("no row at line " + std::to_string(line));
}

TEST(ShardedTrainingRows, LlamaFfnWidthsFollowTorchtitansRule) {
  EXPECT_EQ(llama_ffn_width(4096, 1.3, 1024), 14336);   // Llama 3 8B
  EXPECT_EQ(llama_ffn_width(8192, 1.3, 4096), 28672);   // Llama 2 and 3 70B
  EXPECT_EQ(llama_ffn_width(16384, 1.2, 4096), 53248);  // Llama 3.1 405B
  EXPECT_EQ(llama_ffn_width(4096, 0, 256), 11008);      // Llama 2 7B
  EXPECT_EQ(llama_ffn_width(5120, 0, 256), 13824);      // Llama 2 13B
}

TEST(ShardedTrainingRows, EveryShippedRowIsExpressedOrSaysWhyNot) {
  const auto& rows = shipped();
  ASSERT_EQ(rows.size(), 283u);
  std::set<std::string> sources;
  int expressible = 0;
  for (const auto& r : rows) {
    EXPECT_NE(r.expressible, !r.reason.empty()) << "line " << r.line << ": " << r.reason;
    if (!r.expressible) continue;
    ++expressible;
    sources.insert(r.source);
    EXPECT_GT(r.published, 0) << "line " << r.line;
    EXPECT_NE(r.network, nullptr) << "line " << r.line;
  }
  EXPECT_GE(expressible, 20);
  EXPECT_GE(sources.size(), 2u);
}

TEST(ShardedTrainingRows, MptIsAGptShapeWithItsExpansionRatio) {
  const ShardedRow& r = at_line(2);  // MPT-70b, 512 x H100, FULL_SHARD, full checkpointing
  ASSERT_TRUE(r.expressible) << r.reason;
  EXPECT_EQ(r.catalog_gpu, "h100");
  EXPECT_EQ(r.method, "fsdp");
  EXPECT_EQ(r.recompute, "full");
  EXPECT_EQ(r.run_precision, "bf16");
  EXPECT_EQ(r.shape, "gpt 80x8192, 64 heads, FFN 32768, vocab 50368");
  EXPECT_EQ(r.seq_len, 2048);
  EXPECT_EQ(r.micro_batch, 8);
  EXPECT_DOUBLE_EQ(r.published, 1007);
  EXPECT_FALSE(r.network->stated);  // llm-foundry's H100 tables name no network
  EXPECT_NE(r.scenario.find("methods: [fsdp]\ngpus: [512]\n"), std::string::npos) << r.scenario;
  EXPECT_EQ(at_line(14).method, "fsdp-grad-op");
  // The A100 80GB tables, with the network their section headers state.
  const ShardedRow& a100 = at_line(131);
  ASSERT_TRUE(a100.expressible) << a100.reason;
  EXPECT_EQ(a100.catalog_gpu, "a100");
  EXPECT_EQ(a100.accumulation, 2);
  EXPECT_TRUE(a100.network->stated);
  EXPECT_NE(a100.scenario.find("fabric: nvlink3"), std::string::npos);
  EXPECT_EQ(at_line(140).catalog_gpu, "a100-sxm4-40gb");
}

TEST(ShardedTrainingRows, LlamaWidthsComeFromTheRowOrTorchtitansRule) {
  const ShardedRow& llama3_70b = at_line(251);  // torchtitan 2024-04, full checkpointing
  ASSERT_TRUE(llama3_70b.expressible) << llama3_70b.reason;
  EXPECT_EQ(llama3_70b.shape, "llama 80x8192, 64 heads (8 K/V), FFN 28672, vocab 128256");
  // The note gives 70B's rule; 13B takes the defaults.
  const ShardedRow& llama2_13b = at_line(252);
  ASSERT_TRUE(llama2_13b.expressible) << llama2_13b.reason;
  EXPECT_EQ(llama2_13b.shape, "llama 40x5120, 40 heads, FFN 13824, vocab 32000");
  // torchtitan's selective layer checkpointing (its default option, every 2nd block) and per-op.
  ASSERT_TRUE(at_line(249).expressible) << at_line(249).reason;
  EXPECT_EQ(at_line(249).recompute, "every-2");
  EXPECT_NE(at_line(249).scenario.find("  activation_checkpointing: every-2\n"), std::string::npos);
  EXPECT_EQ(at_line(250).recompute, "selective-op");
  // A bare "selective" (torchtitan's December 2024 tables) says neither.
  EXPECT_EQ(at_line(218).reason.substr(0, 3), "GPU");
  EXPECT_EQ(at_line(259).reason, "selective activation checkpointing of a kind not stated (per op, or which blocks)");
  // torchtitan's RMSNorm and rotary embedding op by op (no torch.compile in that table).
  EXPECT_NE(llama2_13b.scenario.find("  kernels: eager\n"), std::string::npos) << llama2_13b.scenario;
  EXPECT_EQ(at_line(2).scenario.find("kernels:"), std::string::npos);  // MPT has neither
}

TEST(ShardedTrainingRows, TheIbmRowsTakeWhatTheirSiblingSourceStates) {
  // The blog's strategy per size from the README: HYBRID_SHARD for 7B, FULL_SHARD for 34B.
  EXPECT_EQ(at_line(257).method, "fsdp-hybrid");
  EXPECT_EQ(at_line(257).shape, "llama 32x4096, 32 heads, FFN 11008, vocab 32000");
  EXPECT_EQ(at_line(261).method, "fsdp");
  // The README's A100 is the blog's 80 GB part.
  EXPECT_EQ(at_line(265).catalog_gpu, "a100");
  EXPECT_EQ(at_line(265).method, "fsdp-hybrid");
}

TEST(ShardedTrainingRows, RowsLeftOutSayWhy) {
  EXPECT_EQ(at_line(218).reason, "GPU H100 (HBM2e SXM, 500W power limit) 96 GB not in the GPU catalog");
  EXPECT_EQ(at_line(224).reason, "tensor parallelism not modelled yet (FLAG: context parallel, not pure sharded DP)");
  EXPECT_EQ(at_line(269).reason, "CPU offload not modelled");
  EXPECT_EQ(at_line(282).reason.rfind("sharding 'Megatron FSDP", 0), 0u) << at_line(282).reason;
}

const std::string kHeader =
    "source,model,layers,hidden,heads,kv_heads,intermediate,vocab,parameters,seq_len,micro_batch,grad_accum,"
    "global_batch,gpu,gpu_memory_gib,gpus,gpus_per_node,network,sharding,activation_checkpointing,precision,"
    "attention,tokens_per_s_per_gpu,mfu_pct,tflops_per_gpu,software,note\n";

std::vector<ShardedRow> read_rows(const std::string& name, const std::string& rows) {
  const std::string dir = ::testing::TempDir() + "/" + name;
  std::filesystem::create_directories(dir);
  std::ofstream(dir + "/throughput.csv") << kHeader << rows;
  return read_sharded_rows(dir);
}

TEST(ShardedTrainingRows, WhatARowLeavesOutIsItsReason) {
  const auto rows = read_rows(
      "sharded-training-reasons",
      // TFLOP/s only; an A100 without its memory; an unknown source's network; attention unstated.
      "s,MPT-1b,24,2048,16,16,,50368,,2048,4,1,,H100,80,8,,,FSDP FULL_SHARD,none,bf16,FlashAttention,,,300,x,"
      "expansion_ratio 4\n"
      "s,MPT-1b,24,2048,16,16,,50368,,2048,4,1,,A100,,8,,,FSDP FULL_SHARD,none,bf16,FlashAttention,900,,,x,"
      "expansion_ratio 4\n"
      "s,MPT-1b,24,2048,16,16,,50368,,2048,4,1,,A100,80,8,,,FSDP FULL_SHARD,none,bf16,FlashAttention,900,,,x,"
      "expansion_ratio 4\n"
      "s,MPT-1b,24,2048,16,16,,50368,,2048,4,1,,A100,80,8,,,FSDP FULL_SHARD,none,bf16,,900,,,x,expansion_ratio 4\n");
  ASSERT_EQ(rows.size(), 4u);
  EXPECT_EQ(rows[0].reason, "only TFLOP/s per GPU published (their FLOP count is the source's)");
  EXPECT_EQ(rows[1].reason, "GPU A100 (memory not stated) not in the GPU catalog");
  EXPECT_EQ(rows[2].reason, "no network for s on a100 ('')");
  EXPECT_EQ(rows[3].reason, "attention implementation not stated as fused (FlashAttention or SDPA)");
}

TEST(ShardedTrainingRows, AMalformedFieldNamesFileLineAndColumn) {
  const std::string good =
      "torchtitan-2024-04,Llama 2 13B,40,5120,40,40,,32000,,4096,2,,,A100,80,64,,,FSDP2 (1D),none,bf16,SDPA,"
      "\"2,162\",,,x,n\n";
  try {
    read_rows("sharded-training-malformed", good + "s,MPT-1b,24,2048,16,16,,50368,,2048,4,1,,A100,80,8,,,"
                                                   "FSDP FULL_SHARD,none,amp_bf16,FlashAttention,12k,,,x,n\n");
    FAIL() << "a malformed throughput was read";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("throughput.csv:3: tokens_per_s_per_gpu: expected a positive number"),
              std::string::npos)
        << e.what();
  }
  const auto rows = read_rows("sharded-training-good", good);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_TRUE(rows[0].expressible) << rows[0].reason;
  EXPECT_DOUBLE_EQ(rows[0].published, 2162);
}

}  // namespace
}  // namespace scalecast::validation
