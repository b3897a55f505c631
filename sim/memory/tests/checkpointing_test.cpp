// Activation checkpointing modes (issue 39 item 3): what none, full and selective keep and run
// again, against Korthikanti et al. (MLSys 2023) by mechanism, the scenario key and the knobs.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

#include "tests/fixtures.h"
#include "sim/io/input_error.h"
#include "sim/memory/activation_memory.h"
#include "sim/compute/compute_model.h"
#include "sim/memory/memory_fit.h"
#include "sim/scenario/scenario.h"
#include "sim/zoo/layers.h"
#include "sim/zoo/zoo.h"

namespace scalecast {
namespace {

ModelSettings half_fp16(Checkpointing mode, int seq, int hidden, int heads) {
  ModelSettings m;
  m.name = "gpt";
  m.precision = Precision::fp16;
  m.options.bytes_per_element = 2;
  m.options.seq_len = seq;
  m.options.shape.hidden = hidden;
  m.options.shape.heads = heads;
  m.activation_checkpointing = mode;
  return m;
}

// One GPT layer's saved bytes per sequence: the difference between two layers and one.
double layer_bytes(ModelSettings m) {
  const auto saved = [&](int layers) {
    m.options.shape.layers = layers;
    return activation_memory(zoo::build_model("gpt", m.options), m).saved_bytes;
  };
  return saved(2) - saved(1);
}

// Korthikanti et al., per-layer activations by technique (tensor parallel size 1): no recomputation 34 s b h +
// 5 a s^2 b, selective 34 s b h, full 2 s b h (the block's input), in fp16 with 1-byte masks.
TEST(Checkpointing, LayerKeepsKorthikantisBytesInEachMode) {
  const double s = 128, h = 1024, a = 16;
  EXPECT_DOUBLE_EQ(layer_bytes(half_fp16(Checkpointing::none, 128, 1024, 16)), 34 * s * h + 5 * a * s * s);
  EXPECT_DOUBLE_EQ(layer_bytes(half_fp16(Checkpointing::selective, 128, 1024, 16)), 34 * s * h);
  EXPECT_DOUBLE_EQ(layer_bytes(half_fp16(Checkpointing::full, 128, 1024, 16)), 2 * s * h);
  // fp32: the attention core's 9 a s^2 bytes go, the 66 s h stay.
  ModelSettings fp32 = half_fp16(Checkpointing::selective, 128, 1024, 16);
  fp32.precision = Precision::fp32;
  fp32.options.bytes_per_element = 4;
  EXPECT_DOUBLE_EQ(layer_bytes(fp32), 66 * s * h);
}

// The paper, on selective recomputation: for GPT-3 (s 2048, h 12288, a 96) selective recomputation keeps 70%
// less than none, 5 a s / h = 80 of 114 bytes per s b h.
TEST(Checkpointing, SelectiveSavesSeventyPercentOfGpt3sLayer) {
  const double none = layer_bytes(half_fp16(Checkpointing::none, 2048, 12288, 96));
  const double selective = layer_bytes(half_fp16(Checkpointing::selective, 2048, 12288, 96));
  EXPECT_DOUBLE_EQ(1 - selective / none, 80.0 / 114);
  EXPECT_NEAR(1 - selective / none, 0.70, 0.005);
}

// Fused attention keeps no s^2 tensor: selective drops only the kernel's fp32 log-sum-exp (one
// per head and query), and recomputes one core at a time.
TEST(Checkpointing, FusedAttentionLeavesSelectiveTheLogSumExp) {
  ModelSettings fused = half_fp16(Checkpointing::none, 1024, 1024, 16);
  fused.attention = "fused";
  ModelSettings selective = fused;
  selective.activation_checkpointing = Checkpointing::selective;
  EXPECT_DOUBLE_EQ(layer_bytes(fused) - layer_bytes(selective), 16 * 1024 * 4.0);
}

// The backward pass holds one recomputed attention core: eager, its 5 a s^2 bytes.
TEST(Checkpointing, SelectiveHoldsOneRecomputedCoreAtThePeak) {
  ModelSettings none = half_fp16(Checkpointing::none, 512, 1024, 16);
  none.options.shape.layers = 4;
  ModelSettings selective = none;
  selective.activation_checkpointing = Checkpointing::selective;
  const Workload w = zoo::build_model("gpt", none.options);
  const ActivationMemory a = activation_memory(w, none), b = activation_memory(w, selective);
  EXPECT_DOUBLE_EQ(b.transient_bytes - a.transient_bytes, 5 * 16 * 512.0 * 512.0);
  EXPECT_DOUBLE_EQ(a.saved_bytes - b.saved_bytes, 4 * 5 * 16 * 512.0 * 512.0);
}

Workload timed(int layers, int hidden, int heads, int seq, const std::string& gpu, bool fused, Checkpointing mode) {
  zoo::ModelOptions o;
  o.seq_len = seq;
  o.bytes_per_element = 2;
  o.shape.layers = layers;
  o.shape.hidden = hidden;
  o.shape.heads = heads;
  Workload w = zoo::build_model("gpt", o);
  ComputeModelParams p;
  p.precision = Precision::bf16;
  p.fused_attention = fused;
  p.activation_checkpointing = mode;
  apply_compute_model(w, find_gpu(gpu), p);
  return w;
}

// Selective runs the attention core's forward again (scores, softmax, dropout, context), full
// every layer's but the embeddings, head and loss; forward times are the same in every mode.
TEST(Checkpointing, SelectiveRecomputesTheAttentionCoreOnly) {
  for (const bool fused : {false, true}) {
    const Workload none = timed(2, 1024, 16, 2048, "h100", fused, Checkpointing::none);
    const Workload selective = timed(2, 1024, 16, 2048, "h100", fused, Checkpointing::selective);
    const Workload full = timed(2, 1024, 16, 2048, "h100", fused, Checkpointing::full);
    double core = 0;
    for (const Layer& l : none.layers)
      if (l.name.ends_with(".scores") || l.name.ends_with(".softmax") || l.name.ends_with("attn.dropout") ||
          l.name.ends_with(".context"))
        core += l.forward_s;
    const double added = selective.backward_s() - none.backward_s();
    EXPECT_NEAR(added, core, 1e-12) << fused;
    EXPECT_NEAR(added, recompute_s(none, {Checkpointing::selective, 1, fused}), 1e-12);
    EXPECT_GT(added, 0);
    EXPECT_LT(added, full.backward_s() - none.backward_s());
    EXPECT_NEAR(full.backward_s() - none.backward_s(), recompute_s(none, {Checkpointing::full, 1, fused}), 1e-12);
    EXPECT_DOUBLE_EQ(selective.forward_s(), none.forward_s());
  }
}

// GPT-3 175B's shape on the paper's A100s, eager attention as Megatron ran it in 2022. Bands by
// mechanism, none fitted: full runs every block's forward again, at most a third of a step whose
// backward takes twice its forward (Megatron Bridge's documentation: "increases the per-transformer
// layer computation cost by 30%"); selective at least the core products' FLOP share of the step,
// s / (18 h + 3 s) = 0.90%, and under a tenth of full's (the paper's abstract: recomputation's
// time overhead reduced "by over 90%").
TEST(Checkpointing, Gpt3OverheadsLieInThePapersBands) {
  const Workload w = timed(96, 12288, 96, 2048, "a100", false, Checkpointing::none);
  const double step = w.compute_s();
  const double selective = recompute_s(w, {Checkpointing::selective, 1, false}) / step;
  const double full = recompute_s(w, {Checkpointing::full, 1, false}) / step;
  std::printf("GPT-3 175B on an A100, eager: selective +%.2f%%, full +%.2f%% of the step\n", 100 * selective,
              100 * full);
  EXPECT_GT(full, 0.25);
  EXPECT_LT(full, 1.0 / 3);
  EXPECT_GT(selective, 2048.0 / (18 * 12288 + 3 * 2048));
  EXPECT_LT(selective, 0.1 * full);
}

std::string scenario_with(const std::string& value) {
  std::string text = testing::kBaseScenario;
  const std::string batch = "  batch_per_gpu: 64\n";
  return text.replace(text.find(batch), batch.size(), batch + "  activation_checkpointing: " + value + "\n");
}

// none, full, selective; true and false as scenarios wrote them before the modes.
TEST(Checkpointing, ScenarioKeyTakesModesAndBooleans) {
  const std::vector<std::pair<std::string, Checkpointing>> cases = {
      {"none", Checkpointing::none},   {"full", Checkpointing::full}, {"selective", Checkpointing::selective},
      {"true", Checkpointing::full},   {"false", Checkpointing::none}, {"selective-op", Checkpointing::selective_op},
      {"every-1", Checkpointing::full}, {"every-3", Checkpointing::full}};
  for (const auto& [text, mode] : cases)
    EXPECT_EQ(parse_scenario(scenario_with(text), "scen.yaml").model.activation_checkpointing, mode) << text;
  EXPECT_EQ(parse_scenario(scenario_with("every-3"), "scen.yaml").model.checkpoint_every, 3);
  EXPECT_EQ(parse_scenario(scenario_with("full"), "scen.yaml").model.checkpoint_every, 1);
  for (const std::string bad : {"every-0", "every-", "every-x", "every-12345"})
    EXPECT_THROW(parse_scenario(scenario_with(bad), "scen.yaml"), InputError) << bad;
  // model.loss beside it: eager by default, fp32 or fused, anything else refused at its line.
  EXPECT_EQ(parse_scenario(testing::kBaseScenario, "scen.yaml").model.loss, "eager");
  EXPECT_EQ(parse_scenario(testing::kBaseScenario, "scen.yaml", {"model.loss=fused"}).model.loss, "fused");
  EXPECT_EQ(parse_scenario(testing::kBaseScenario, "scen.yaml", {"model.loss=fp32"}).model.loss, "fp32");
  EXPECT_THROW(parse_scenario(testing::kBaseScenario, "scen.yaml", {"model.loss=compiled"}), InputError);
  EXPECT_EQ(parse_scenario(testing::kBaseScenario, "scen.yaml").model.activation_checkpointing, Checkpointing::none);
  EXPECT_EQ(parse_scenario(testing::kBaseScenario, "scen.yaml", {"model.activation_checkpointing=selective"})
                .model.activation_checkpointing,
            Checkpointing::selective);
  try {
    parse_scenario(scenario_with("partial"), "scen.yaml");
    ADD_FAILURE() << "partial was read";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("scen.yaml:5: model.activation_checkpointing: expected an activation "
                                         "checkpointing mode (one of none, full, selective"),
              std::string::npos)
        << e.what();
  }
}

// Out of memory with eager attention: selective is named where it suffices, before full, with
// the compute it adds; full only where selective does not suffice.
TEST(Checkpointing, KnobsNameSelectiveBeforeFullWithTheirCost) {
  Scenario s;
  s.compute.gpu = "a100";
  s.model = half_fp16(Checkpointing::none, 2048, 2048, 16);
  s.model.name = "gpt";
  s.model.options.shape.layers = 24;
  s.model.optimizer = "adam";
  s.model.batch_per_gpu = 8;
  Workload w = zoo::build_model("gpt", s.model.options);
  w.batch_per_gpu = s.model.batch_per_gpu;
  ComputeModelParams p;
  p.precision = Precision::fp16;
  apply_compute_model(w, find_gpu("a100"), p);
  ASSERT_FALSE(memory_fit(s, w).fits()) << memory_summary(memory_fit(s, w));
  const std::string knobs = memory_knobs(s, w);
  std::printf("knobs: %s\n", knobs.c_str());
  const auto selective = knobs.find("model.activation_checkpointing=selective (");
  ASSERT_NE(selective, std::string::npos) << knobs;
  EXPECT_NE(knobs.find("of compute per iteration", selective), std::string::npos) << knobs;
  EXPECT_EQ(knobs.find("model.activation_checkpointing=full"), std::string::npos) << knobs;
  // Already selective: full is what is left, costed as the difference.
  s.model.activation_checkpointing = Checkpointing::selective;
  s.model.batch_per_gpu = 16;
  w.batch_per_gpu = 16;
  apply_compute_model(w, find_gpu("a100"), p);
  const std::string more = memory_knobs(s, w);
  std::printf("knobs when selective: %s\n", more.c_str());
  EXPECT_EQ(more.find("=selective ("), std::string::npos) << more;
  EXPECT_NE(more.find("model.activation_checkpointing=selective-op ("), std::string::npos) << more;
  // Per-op checkpointing does not fit a larger batch: whole blocks are what is left.
  s.model.batch_per_gpu = 32;
  w.batch_per_gpu = 32;
  apply_compute_model(w, find_gpu("a100"), p);
  const std::string most = memory_knobs(s, w);
  std::printf("knobs at 32: %s\n", most.c_str());
  EXPECT_EQ(most.find("=selective"), std::string::npos) << most;
  EXPECT_NE(most.find("model.activation_checkpointing=full ("), std::string::npos) << most;
}

// torchtitan's per-op policy on a Llama block (wq, wk, wv, fused attention, wo, w1, w3, w2): the
// outputs of wq, wv, w1 and w2 (the 1st, 3rd, 5th and 7th products) and of the attention kernel
// stay with its log-sum-exp and the block's input; norms, rotary, wk, wo, w3, SiLU, the product
// and the residual adds run again.
TEST(Checkpointing, SelectiveOpKeepsEveryOtherProductAndTheAttentionKernel) {
  ModelSettings m;
  m.name = "llama";
  m.precision = Precision::bf16;
  m.options.bytes_per_element = 2;
  m.options.seq_len = 1024;
  m.options.shape.layers = 2;
  m.options.shape.hidden = 1024;
  m.options.shape.heads = 16;
  m.options.shape.kv_heads = 4;
  m.options.shape.intermediate = 2816;
  m.attention = "fused";
  m.activation_checkpointing = Checkpointing::selective_op;
  const auto layer = [&](ModelSettings settings) {
    const auto saved = [&](int layers) {
      settings.options.shape.layers = layers;
      return activation_memory(zoo::build_model("llama", settings.options), settings).saved_bytes;
    };
    return saved(2) - saved(1);
  };
  const double s = 1024, h = 1024, kv = 256, f = 2816, bf16 = 2;
  // Per sequence: the input (h), wq (h), wv (kv), the attention output (h) and its fp32 log-sum-exp
  // (16 heads x s), w1 (f) and w2 (h).
  EXPECT_DOUBLE_EQ(layer(m), s * (4 * h + kv + f) * bf16 + 16 * s * 4);
  ModelSettings full = m, none = m;
  full.activation_checkpointing = Checkpointing::full;
  none.activation_checkpointing = Checkpointing::none;
  EXPECT_GT(layer(m), layer(full));
  EXPECT_LT(layer(m), layer(none));

  // Compute: the recomputed forward is every layer of the block but those kept.
  Workload w = zoo::build_model("llama", m.options);
  w.batch_per_gpu = 2;
  ComputeModelParams p;
  p.precision = Precision::bf16;
  p.fused_attention = true;
  apply_compute_model(w, find_gpu("h100"), p);
  double again = 0;
  int products = 0;
  for (const Layer& l : w.layers) {
    if (zoo::block_of(l.name).empty()) continue;
    if (l.kind == "linear") {
      if (++products % 2 == 0) again += l.forward_s;
      if (products == 7) products = 0;
    } else if (l.kind != "attention") {
      again += l.forward_s;
    }
  }
  EXPECT_GT(again, 0);
  EXPECT_NEAR(recompute_s(w, {Checkpointing::selective_op, 1, true}), again, 1e-12);
  EXPECT_LT(again, recompute_s(w, {Checkpointing::full, 1, true}));
  EXPECT_GT(again, recompute_s(w, {Checkpointing::selective, 1, true}));
}

// torchtitan's selective layer checkpointing (selective_ac_option 2): full checkpointing of the
// 2nd, 4th, ... blocks, the others keeping everything.
TEST(Checkpointing, EveryNthBlockCheckpointsThoseBlocksOnly) {
  ModelSettings every = half_fp16(Checkpointing::full, 512, 1024, 16), none = every, full = every;
  every.checkpoint_every = 2;
  none.activation_checkpointing = Checkpointing::none;
  every.options.shape.layers = none.options.shape.layers = full.options.shape.layers = 4;
  const Workload w = zoo::build_model("gpt", every.options);
  const double kept = activation_memory(w, every).saved_bytes;
  EXPECT_DOUBLE_EQ(kept, (activation_memory(w, none).saved_bytes + activation_memory(w, full).saved_bytes) / 2);

  Workload timed_w = timed(4, 1024, 16, 512, "h100", true, Checkpointing::none);
  const double all = recompute_s(timed_w, {Checkpointing::full, 1, true});
  const double half = recompute_s(timed_w, {Checkpointing::full, 2, true});
  double blocks = 0, odd = 0;
  for (const Layer& l : timed_w.layers) {
    const int b = zoo::block_index(l.name);
    if (b < 0) continue;
    blocks += l.forward_s;
    if (b % 2 == 1) odd += l.forward_s;
  }
  EXPECT_NEAR(half, odd, 1e-12);
  EXPECT_LT(half, all);
  EXPECT_GT(all, blocks - 1e-12);  // full also runs the final norm again
  EXPECT_EQ(zoo::block_index("transformer.h.3.mlp.c_fc"), 3);
  EXPECT_EQ(zoo::block_index("bert.encoder.layer.11.output.dense"), 11);
  EXPECT_EQ(zoo::block_index("layer1.0.conv1"), -1);
}

}  // namespace
}  // namespace scalecast
