// Tests of a profile moved between GPUs: compute-bound layers scale by the matmul rate, memory-bound
// ones by bandwidth, small ones stay launch-bound, unmatched ones take the whole model's ratio; a
// profile of the scenario's own GPU is unchanged, and what cannot be scaled is refused.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/fixtures.h"
#include "sim/compute/compute_model.h"
#include "sim/catalogs/gpu_catalog.h"
#include "sim/formats/profile_csv.h"
#include "sim/compute/profile_gpu_scaling.h"
#include "sim/compute/profile_zoo_match.h"
#include "sim/io/input_error.h"
#include "sim/scenario/workload_builder.h"
#include "sim/zoo/zoo.h"

namespace scalecast {
namespace {

Layer timed_layer(const std::string& name, double forward_s, double backward_s) {
  Layer layer;
  layer.name = name;
  layer.forward_s = forward_s;
  layer.backward_s = backward_s;
  return layer;
}

// Each named layer measured as 1 ms forward and 2 ms backward on an A100, scaled to an H100 in
// fp16 (a name outside the zoo too, and an untimed module): how many times faster each runs there.
std::vector<double> a100_to_h100_speedups(const Workload& zoo, const std::vector<std::string>& names, GpuScaling& scaling) {
  Workload profile;
  for (const auto& name : names) profile.layers.push_back(timed_layer(name, 1e-3, 2e-3));
  profile.layers.push_back(timed_layer("bert.encoder", 0, 0));
  ComputeModelParams params;
  params.precision = Precision::fp16;
  scaling = scale_profile_layers(profile, zoo, find_gpu("a100"), find_gpu("h100"), params);
  EXPECT_EQ(profile.layers.back().forward_s, 0);
  std::vector<double> out;
  for (std::size_t i = 0; i < names.size(); ++i) {
    const Layer& layer = profile.layers[i];
    EXPECT_DOUBLE_EQ(layer.backward_s, 2 * layer.forward_s) << layer.name;  // one ratio a layer
    out.push_back(3e-3 / (layer.forward_s + layer.backward_s));
  }
  return out;
}

// A LLaMA-shaped layer at 16,384 tokens: its MLP products fill both GPUs' SMs in whole waves
// (within 1%), its RMSNorm streams 268 MB. The products' latency (sim/compute/kernel_times.h: 5 us
// and 0.5 us a wave, the same on both GPUs) takes 2% off their speedup.
TEST(ProfileGpuScaling, ComputeBoundByMatmulRateMemoryBoundByBandwidth) {
  zoo::ModelOptions options;
  options.seq_len = 2048;
  options.shape.layers = 1;
  options.shape.hidden = 4096;
  options.shape.heads = 32;
  options.shape.intermediate = 14336;
  Workload zoo = zoo::build_model("llama", options);
  zoo.batch_per_gpu = 8;
  GpuScaling scaling;
  const auto s = a100_to_h100_speedups(zoo, {"model.layers.0.mlp.gate_proj", "model.layers.0.post_attention_layernorm",
                                "not.in.the.zoo"}, scaling);
  const GpuSpec& a100 = find_gpu("a100");
  const GpuSpec& h100 = find_gpu("h100");
  const double matmul = h100.peak_flops(Precision::fp16) * h100.measured_matmul_efficiency(Precision::fp16) /
                        (a100.peak_flops(Precision::fp16) * a100.measured_matmul_efficiency(Precision::fp16));
  const double bandwidth = h100.memory_bandwidth / a100.memory_bandwidth;
  ASSERT_GT(matmul / bandwidth, 1.5);  // the two rules must be told apart
  EXPECT_NEAR(s[0], matmul, 0.03 * matmul);
  EXPECT_NEAR(s[1], bandwidth, 0.02 * bandwidth);
  EXPECT_DOUBLE_EQ(1 / s[2], scaling.model_ratio);
  EXPECT_EQ(scaling.timed, 3);
  EXPECT_EQ(scaling.matched, 2);
}

// BERT-Large's pooler tanh at batch 8 (8 x 1024 elements) is its launch gap on either GPU.
TEST(ProfileGpuScaling, SmallKernelsStayLaunchBound) {
  Workload zoo = zoo::build_model("bert-large", zoo::ModelOptions{});
  zoo.batch_per_gpu = 8;
  GpuScaling scaling;
  const auto s = a100_to_h100_speedups(zoo, {"bert.pooler.activation"}, scaling);
  EXPECT_GE(s[0], 1.0);
  EXPECT_LT(s[0], 1.05);
  EXPECT_EQ(scaling.matched, 1);
}

TEST(ProfileZooMatch, ModulesOwnTimeTakesTheChildrenTheProfileDoesNotName) {
  Workload profile;
  profile.layers = {timed_layer("layer1.0", 1, 0), timed_layer("layer1.0.relu", 1, 1), timed_layer("layer1.0.conv1", 1, 1),
                    timed_layer("fc", 1, 1)};
  const Workload zoo = zoo::build_model("resnet50", zoo::ModelOptions{});
  const auto m = match_zoo_layers(profile, zoo);
  ASSERT_EQ(m.size(), 4u);
  ASSERT_FALSE(m[0].empty());
  for (const std::size_t z : m[0]) EXPECT_TRUE(zoo.layers[z].name.starts_with("layer1.0.")) << zoo.layers[z].name;
  EXPECT_EQ(m[1].size(), 3u);  // torchvision's Bottleneck runs its one ReLU three times
  ASSERT_EQ(m[2].size(), 1u);
  EXPECT_EQ(zoo.layers[m[2][0]].kind, "conv");
  ASSERT_EQ(m[3].size(), 1u);
  EXPECT_EQ(zoo.layers[m[3][0]].name, "fc");
}

std::string scaling_scenario(const std::string& model_name, const std::string& gpu, const std::string& precision) {
  return "name: profiled\nmodel:\n" + (model_name.empty() ? "" : "  name: " + model_name + "\n") +
         "  profile: p.csv\n  batch_per_gpu: 32\n  precision: " + precision + "\n  optimizer: sgd\n"
         "gpu:\n  type: " + gpu + "\ncluster:\n  gpus_per_node: 4\n  fabric: pcie3\n"
         "  network: {bandwidth: 10Gbps, transport: tcp}\nmethods: [bsp-allreduce]\ngpus: [4]\n";
}

std::string profile_on_device(const std::string& device) {
  return "# scalecast profile v1\n# gpu: " + device + "\n# batch_per_gpu: 32\n# step_s: 0.010\n"
         "layer,forward_ms,backward_ms,grad_tensors,grad_bytes\n"
         "bert.encoder.layer.0.intermediate.dense,1.0,2.0,1,16777216\n"
         "bert.encoder.layer.0.output.LayerNorm,0.5,1.0,2,8192\n"
         "mystery,0.5,0.5,0,0\n";
}

BuiltWorkload scaled_build(const std::string& profile, const std::string& yaml) {
  testing::TempFolder dir;
  dir.write("p.csv", profile);
  dir.write("s.yaml", yaml);
  return build_workload(load_scenario((dir.path() / "s.yaml").string()));
}

std::string scaling_error_of(const std::string& profile, const std::string& yaml) {
  try {
    scaled_build(profile, yaml);
  } catch (const InputError& e) {
    const std::string what = e.what();
    return what.substr(what.find("p.csv:"));
  }
  return "";
}

TEST(ProfileGpuScaling, SameGpuKeepsTheMeasuredTimes) {
  const BuiltWorkload b = scaled_build(profile_on_device("NVIDIA H100 80GB HBM3"), scaling_scenario("bert-large", "h100", "fp16"));
  ASSERT_EQ(b.workload.layers.size(), 3u);
  EXPECT_EQ(b.workload.layers[0].forward_s, 1e-3);
  EXPECT_EQ(b.workload.layers[1].backward_s, 1e-3);
  EXPECT_NEAR(b.workload.optimizer_s, 10e-3 - 5.5e-3, 1e-15);
  EXPECT_EQ(b.source.find("scaled to"), std::string::npos) << b.source;
}

TEST(ProfileGpuScaling, AnotherCatalogGpuIsScaledAndSaysHow) {
  const BuiltWorkload b = scaled_build(profile_on_device("NVIDIA A100-SXM4-80GB"), scaling_scenario("bert-large", "h100", "fp16"));
  EXPECT_NE(b.source.find("; measured on NVIDIA A100-SXM4-80GB, scaled to h100 by layer kind (2 layers matched, 1 "
                          "by the whole model's x0."),
            std::string::npos)
      << b.source;
  EXPECT_LT(b.workload.layers[0].forward_s, 1e-3 / 2);  // the product: about 2.9x faster
  EXPECT_GT(b.workload.layers[1].forward_s, 0.5e-3 / 2);  // the LayerNorm: bandwidth, 1.6x at most
  // 4.5 ms outside the layers: the SGD step moves from the A100's modelled time to the H100's.
  ComputeModelParams sgd;
  sgd.precision = Precision::fp16;
  const double moved = optimizer_step_s(b.workload, find_gpu("h100"), sgd) -
                       optimizer_step_s(b.workload, find_gpu("a100"), sgd);
  EXPECT_LT(moved, 0);
  EXPECT_NEAR(b.workload.optimizer_s, 4.5e-3 + moved, 1e-12);
  EXPECT_NE(b.source.find(fmt::format("the step outside them {:.4g} ms (sgd step by the compute model, the rest as "
                                      "measured)", b.workload.optimizer_s * 1e3)),
            std::string::npos)
      << b.source;
}

TEST(ProfileGpuScaling, RefusesWhatItCannotScale) {
  EXPECT_EQ(scaling_error_of(profile_on_device("NVIDIA A100-SXM4-80GB"), scaling_scenario("", "h100", "fp16"))
                .rfind("p.csv:2: gpu: expected a h100 as gpu.type in ", 0),
            0u);
  EXPECT_NE(scaling_error_of(profile_on_device("NVIDIA A100-SXM4-80GB"), scaling_scenario("", "h100", "fp16"))
                .find("scaling to another GPU needs the layers' shapes: set model.name to the zoo model profiled"),
            std::string::npos);
  EXPECT_NE(scaling_error_of(profile_on_device("Tesla V100-PCIE-32GB"), scaling_scenario("bert-large", "h100", "bf16"))
                .find("p.csv:2: gpu: expected a GPU that computes in bf16 (model.precision in "),
            std::string::npos);
}

TEST(ProfileGpuScaling, UnknownDeviceIsTakenAsMeasuredOnTheScenariosGpu) {
  const BuiltWorkload b = scaled_build(profile_on_device("NVIDIA GeForce RTX 4090"), scaling_scenario("bert-large", "h100", "fp16"));
  EXPECT_EQ(b.workload.layers[0].forward_s, 1e-3);
  EXPECT_NE(b.source.find("measured on 'NVIDIA GeForce RTX 4090' (not in the catalog), taken as a h100"),
            std::string::npos)
      << b.source;
}

}  // namespace
}  // namespace scalecast
