// Tests of the memory estimate: a hand-computed case per precision and optimizer, BERT-Large at
// batch 4096 in fp16 refused on a K80, every shipped scenario fitting its GPU.
#include <gtest/gtest.h>

#include <filesystem>

#include "sim/memory/memory_fit.h"
#include "sim/scenario/run_setup.h"
#include "sim/scenario/workload_builder.h"

namespace scalecast {
namespace {

// One layer of 1,000 parameters whose output is 500 values per sample, batch 8 on a K80.
Scenario one_layer_scenario(Precision precision, const std::string& optimizer) {
  Scenario s;
  s.compute.gpu = "k80";
  s.model.batch_per_gpu = 8;
  s.model.precision = precision;
  s.model.optimizer = optimizer;
  return s;
}

Workload one_layer(int64_t grad_element_bytes) {
  Layer layer;
  layer.name = "fc";
  layer.grads = {{"fc.weight", 1000, 1000 * grad_element_bytes}};
  layer.output_elements = 500;
  Workload w;
  w.layers = {layer};
  return w;
}

TEST(MemoryFit, Fp32WithSgdMomentum) {
  const MemoryFit fit = memory_fit(one_layer_scenario(Precision::fp32, "sgd"), one_layer(4));
  EXPECT_EQ(fit.weights_bytes, 4000);      // 4 B per parameter
  EXPECT_EQ(fit.gradients_bytes, 4000);    // 4 B per parameter
  EXPECT_EQ(fit.optimizer_bytes, 4000);    // momentum, 4 B
  // The network's input is not a layer output here; the one layer is the loss's head: cross
  // entropy's log_softmax keeps 500 fp32 values per sample.
  EXPECT_EQ(fit.activations_bytes, 16000); // 500 x 8 samples x 4 B
  EXPECT_GT(fit.needed_bytes(), 28000);    // + workspaces, the CUDA context, the allocator's reserve
  EXPECT_EQ(fit.available_bytes, 12.0 * 1024 * 1024 * 1024);
  EXPECT_TRUE(fit.fits());
}

// ZeRO (Rajbhandari et al. 2020, section 3.1): mixed-precision Adam keeps 2 + 2 + 12 bytes per
// parameter (fp16 weights and gradients; fp32 master weights, momentum and variance).
TEST(MemoryFit, MixedPrecisionAdamIsSixteenBytesPerParameter) {
  const MemoryFit fit = memory_fit(one_layer_scenario(Precision::fp16, "adam"), one_layer(2));
  EXPECT_EQ(fit.weights_bytes, 2000);
  EXPECT_EQ(fit.gradients_bytes, 2000);
  EXPECT_EQ(fit.optimizer_bytes, 12000);
  EXPECT_EQ(fit.activations_bytes, 8000);  // the loss's log_softmax: 500 x 8 x 2 B
  const auto parts = fit.parts();
  EXPECT_EQ(parts.front().first, "CUDA context");
}

TEST(MemoryFit, BertLargeAtBatch4096InFp16DoesNotFitAK80) {
  Scenario s = one_layer_scenario(Precision::fp16, "adam");
  s.model.name = "bert-large";
  s.model.batch_per_gpu = 4096;
  s.model.options.bytes_per_element = 2;
  Workload w = zoo::build_model("bert-large", s.model.options);
  const MemoryFit fit = memory_fit(s, w);
  EXPECT_FALSE(fit.fits());
  EXPECT_GT(fit.activations_bytes, 500.0 * 1024 * 1024 * 1024);
  EXPECT_EQ(fit.parts().front().first, "activations");
  EXPECT_NE(memory_summary(fit).find(") of 12 GiB per GPU (activations "), std::string::npos);
}

TEST(MemoryFit, EveryShippedTrainingScenarioFits) {
  int scenarios = 0;
  for (const auto& entry :
       std::filesystem::directory_iterator(std::string(SCALECAST_SOURCE_DIR) + "/scenarios")) {
    if (entry.path().extension() != ".yaml") continue;
    const Scenario s = load_scenario(entry.path().string());
    if (s.model.name.empty()) continue;  // a cluster alone (for collectives)
    // A sharded method's state depends on the method and the GPU count: every one of them.
    const Workload w = build_workload(s).workload;
    for (const auto& m : s.methods)
      for (int g : s.gpus) {
        const MemoryFit fit = memory_fit(s, w, state_sharding(strategy_for(s, m), sized_for(s.cluster, g)));
        EXPECT_TRUE(fit.fits()) << entry.path() << " " << m << " x " << g << ": " << memory_summary(fit);
      }
    ++scenarios;
  }
  EXPECT_GT(scenarios, 10);
}

TEST(MemoryFit, ProfileOutsideTheZooLeavesActivationsOut) {
  Scenario s = one_layer_scenario(Precision::fp32, "sgd");
  s.model.profile = "p.csv";
  s.model.name = "my-net";
  const MemoryFit fit = memory_fit(s, one_layer(4));
  EXPECT_FALSE(fit.activations_known);
  EXPECT_EQ(fit.activations_bytes, 0);
  EXPECT_EQ(fit.parts().size(), 6u);  // no activations nor temporaries
  EXPECT_NE(memory_summary(fit).find("activations not counted"), std::string::npos);
}

}  // namespace
}  // namespace scalecast
