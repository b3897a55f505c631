// Activation memory by mechanism (issue 43): what PyTorch's autograd keeps per layer kind, the
// four published configurations the old estimate refused, and a refusal that names its knobs.
#include <gtest/gtest.h>

#include <iostream>

#include "sim/compute/compute_model.h"
#include "sim/memory/activation_memory.h"
#include "sim/memory/memory_fit.h"
#include "sim/io/units.h"
#include "sim/zoo/zoo.h"

namespace scalecast {
namespace {

Scenario scenario(const std::string& model, const std::string& gpu, int batch, int seq = 0) {
  Scenario s;
  s.compute.gpu = gpu;
  s.model.name = model;
  s.model.batch_per_gpu = batch;
  s.model.precision = Precision::fp16;
  s.model.options.bytes_per_element = 2;
  s.model.optimizer = model.rfind("resnet", 0) == 0 ? "sgd" : "adam";
  if (seq > 0) s.model.options.seq_len = seq;
  return s;
}

MemoryFit fit_of(const Scenario& s) { return memory_fit(s, zoo::build_model(s.model.name, s.model.options)); }

// Korthikanti et al. 2022, "Reducing Activation Recomputation", eq. 1: a transformer layer keeps
// 34 s b h + 5 a s^2 b bytes in fp16 with 1-byte dropout masks. One GPT layer (eager attention,
// half model): the difference between two layers and one.
TEST(ActivationMemory, TransformerLayerKeepsKorthikantisBytesInFp16) {
  Scenario s = scenario("gpt", "a100", 1, 128);
  s.model.options.shape.hidden = 1024;
  s.model.options.shape.heads = 16;
  const auto saved = [&](int layers) {
    s.model.options.shape.layers = layers;
    return activation_memory(zoo::build_model("gpt", s.model.options), s.model).saved_bytes;
  };
  const double sq = 128, h = 1024, a = 16;
  EXPECT_DOUBLE_EQ(saved(2) - saved(1), 34 * sq * h + 5 * a * sq * sq);
  // fp32: 16 tensors of s h at 4 B, two masks, softmax and dropped probabilities at 4 B.
  s.model.precision = Precision::fp32;
  EXPECT_DOUBLE_EQ(saved(2) - saved(1), 66 * sq * h + 9 * a * sq * sq);
}

// Autocast keeps softmax in fp32 (4 B), its dropout mask (1 B) and the fp16 cast of the dropped
// probabilities that P V reads (2 B): 7 bytes per score against the half model's 5.
TEST(ActivationMemory, AutocastKeepsFp32SoftmaxAndAnFp16Copy) {
  Scenario half = scenario("bert-large", "a100", 1, 512);
  Scenario amp = half;
  amp.model.mixed_precision = "autocast";
  const Workload w = zoo::build_model("bert-large", half.model.options);
  const double scores = 24 * 16 * 512.0 * 512.0;
  const double diff = activation_memory(w, amp.model).saved_bytes - activation_memory(w, half.model).saved_bytes;
  EXPECT_GT(diff, 2 * scores);  // at least the 2 extra bytes per score, plus the fp32 stream
}

// Fused attention keeps no s^2 tensor.
TEST(ActivationMemory, FusedAttentionDropsTheScores) {
  Scenario eager = scenario("gpt2", "a100", 1, 1024);
  Scenario fused = eager;
  fused.model.attention = "fused";
  const Workload w = zoo::build_model("gpt2", eager.model.options);
  const double scores = 12 * 12 * 1024.0 * 1024.0;
  const double diff = activation_memory(w, eager.model).saved_bytes - activation_memory(w, fused.model).saved_bytes;
  EXPECT_NEAR(diff, 5 * scores, 0.05 * scores);  // softmax 2 + mask 1 + dropped 2, less the lse
}

// torchvision's in-place ReLU shares the batch norm's output: ResNet-50 keeps per image about
// conv outputs + ReLU outputs, not every layer's output.
TEST(ActivationMemory, InPlaceReluIsNotCountedTwice) {
  Scenario s = scenario("resnet50", "a100", 1);
  s.model.precision = Precision::fp32;
  const Workload w = zoo::build_model("resnet50", s.model.options);
  double all_outputs = 0;
  for (const Layer& l : w.layers) all_outputs += 4.0 * static_cast<double>(l.output_elements);
  const double saved = activation_memory(w, s.model).saved_bytes;
  EXPECT_LT(saved, 0.65 * all_outputs);
  EXPECT_GT(saved, 0.4 * all_outputs);
}

// Issue 43: four configurations published as having run, refused before.
TEST(MemoryFit, PublishedRunsTheOldEstimateRefusedArePredicted) {
  struct Case {
    const char* model;
    const char* gpu;
    int batch;
    int seq;
  };
  const Case cases[] = {{"resnet50", "a100", 1280, 0},
                        {"bert-large", "a100", 112, 384},
                        {"bert-large", "h200", 192, 384},
                        {"bert-large", "b200", 256, 384},
                        {"bert-base", "a100", 320, 384},
                        {"resnet50", "h200", 2560, 0}};
  for (const Case& c : cases) {
    const MemoryFit fit = fit_of(scenario(c.model, c.gpu, c.batch, c.seq));
    std::cout << c.model << " batch " << c.batch << " on " << c.gpu << ": " << memory_summary(fit) << "\n"
              << "  warning: " << memory_warning(fit) << "\n";
    EXPECT_TRUE(fit.fits()) << c.model << " " << c.batch << ": " << memory_summary(fit);
  }
}

// Over the central estimate but within the interval: predicted, with the margin named.
TEST(MemoryFit, WithinTheIntervalIsPredictedWithAWarning) {
  const MemoryFit fit = fit_of(scenario("bert-base", "a100", 320, 384));
  EXPECT_TRUE(fit.fits());
  EXPECT_GT(fit.needed_bytes(), fit.available_bytes);
  EXPECT_NE(memory_warning(fit).find("over the 80 GiB of an a100, within its interval (low end "), std::string::npos)
      << memory_warning(fit);
  EXPECT_TRUE(memory_warning(fit_of(scenario("bert-large", "a100", 8, 128))).empty());
}

// 30% over the GPU's memory is refused, with what would make it fit.
TEST(MemoryFit, ThirtyPercentOverIsRefusedWithKnobs) {
  for (const char* model : {"resnet50", "bert-large"}) {
    Scenario s = scenario(model, "a100", 1, std::string(model) == "bert-large" ? 384 : 0);
    const double target = 1.3 * fit_of(s).available_bytes;
    while (fit_of(s).needed_bytes() < target) s.model.batch_per_gpu += 1;
    const MemoryFit fit = fit_of(s);
    const std::string knobs = memory_knobs(s, zoo::build_model(model, s.model.options));
    std::cout << model << " batch " << s.model.batch_per_gpu << ": " << memory_summary(fit) << "\n  knobs: " << knobs
              << "\n";
    EXPECT_FALSE(fit.fits()) << memory_summary(fit);
    EXPECT_NE(knobs.find("model.batch_per_gpu="), std::string::npos);
  }
}

// The loss over a half model's logits (model.loss): eager keeps its log-softmax at their width;
// an fp32 copy first (logits.float()) keeps it, and the backward's two gradients, in fp32; one
// fused kernel keeps the logits themselves, so as much as eager and no fp32 copy. The compute
// model runs eager and fp32 over fp32 copies, fused over the logits at their width.
TEST(ActivationMemory, TheLossKeepsItsLogSoftmaxAtTheWidthItRunsAt) {
  Scenario s = scenario("gpt", "h100", 2, 512);
  s.model.options.shape.layers = 1;
  s.model.options.shape.hidden = 256;
  s.model.options.shape.heads = 4;
  s.model.options.vocab_size = 32000;
  const Workload w = zoo::build_model("gpt", s.model.options);
  const auto memory = [&](const std::string& loss) {
    s.model.loss = loss;
    return activation_memory(w, s.model);
  };
  const ActivationMemory eager = memory("eager"), fp32 = memory("fp32"), fused = memory("fused");
  const double logits = 512.0 * 32000;  // per sample
  EXPECT_DOUBLE_EQ(fp32.saved_bytes - eager.saved_bytes, logits * (4 - 2));
  EXPECT_DOUBLE_EQ(fused.saved_bytes, eager.saved_bytes);
  EXPECT_DOUBLE_EQ(fp32.largest_tensor_bytes, logits * 4);
  EXPECT_DOUBLE_EQ(fused.largest_tensor_bytes, logits * 2);

  Workload timed_eager = w, timed_fused = w;
  timed_eager.batch_per_gpu = timed_fused.batch_per_gpu = 2;
  ComputeModelParams p;
  p.precision = Precision::bf16;
  apply_compute_model(timed_eager, find_gpu("h100"), p);
  p.fused_loss = true;
  apply_compute_model(timed_fused, find_gpu("h100"), p);
  const Layer& loss = timed_eager.layers.back();
  ASSERT_EQ(loss.kind, "cross_entropy");
  EXPECT_LT(timed_fused.layers.back().backward_s, 0.6 * loss.backward_s);
  EXPECT_DOUBLE_EQ(timed_fused.layers[1].forward_s, timed_eager.layers[1].forward_s);
}

}  // namespace
}  // namespace scalecast
