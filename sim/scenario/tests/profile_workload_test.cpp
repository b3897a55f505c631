// Tests of a profile as a scenario's model: gradient elements at the scenario's precision, batch
// scaling, the step time outside the layers, and the refusals that name the profile's line.
#include <gtest/gtest.h>

#include <string>

#include "tests/fixtures.h"
#include "sim/compute/compute_model.h"
#include "sim/catalogs/gpu_catalog.h"
#include "sim/formats/profile_csv.h"
#include "sim/io/input_error.h"
#include "sim/scenario/workload_builder.h"

namespace scalecast {
namespace {

const std::string kScenario = R"(name: profiled
model:
  profile: p.csv
  batch_per_gpu: 64
  precision: fp16
  optimizer: adam
gpu:
  type: v100-pcie
cluster:
  gpus_per_node: 4
  fabric: pcie3
  network: {bandwidth: 10Gbps, transport: tcp}
methods: [bsp-allreduce]
gpus: [4]
)";

// Two layers, 6 ms of forward + backward at batch 32.
std::string profile_with(const std::string& metadata) {
  return "# scalecast profile v1\n" + metadata +
         "layer,forward_ms,backward_ms,grad_tensors,grad_bytes\n"
         "embed,1.0,2.0,1,2631638656\n"
         "head,1.0,2.0,1,1000\n";
}

BuiltWorkload built(const std::string& profile, const std::string& scenario = kScenario) {
  testing::TempFolder dir;
  dir.write("p.csv", profile);
  dir.write("s.yaml", scenario);
  return build_workload(load_scenario((dir.path() / "s.yaml").string()));
}

std::string error_of(const std::string& profile, const std::string& scenario = kScenario) {
  try {
    built(profile, scenario);
  } catch (const InputError& e) {
    const std::string what = e.what();
    return what.substr(what.find("p.csv:"));  // without the temporary folder
  }
  return "";
}

// The issue's "657909664 parameters" for a 1.32B model: bytes / 4 at fp16.
TEST(ProfileWorkload, ParametersFromGradientBytesAtThePrecision) {
  const Workload w = built(profile_with("# batch_per_gpu: 64\n")).workload;
  EXPECT_EQ(w.parameters(), 1'315'819'328 + 500);
  EXPECT_EQ(w.grad_bytes(), 2'631'638'656 + 1000);
}

TEST(ProfileWorkload, LayerTimesScaleWithTheBatch) {
  const BuiltWorkload b = built(profile_with("# batch_per_gpu: 32\n# step_s: 0.010\n"));
  EXPECT_EQ(b.workload.batch_per_gpu, 64);
  EXPECT_DOUBLE_EQ(b.workload.forward_s(), 4e-3);
  EXPECT_DOUBLE_EQ(b.workload.backward_s(), 8e-3);
  // 10 ms step - 6 ms of layers at the profiled batch; not scaled.
  EXPECT_NEAR(b.workload.optimizer_s, 4e-3, 1e-15);
  EXPECT_NE(b.source.find("layers scaled x2 from batch 32"), std::string::npos) << b.source;
  EXPECT_NE(b.source.find("4 ms of the step outside the layers"), std::string::npos) << b.source;
}

TEST(ProfileWorkload, WithoutStepTheOptimizerComesFromTheRoofline) {
  const BuiltWorkload b = built(profile_with(""));
  ComputeModelParams adam;
  adam.optimizer = "adam";
  EXPECT_DOUBLE_EQ(b.workload.optimizer_s,
                   optimizer_step_s(b.workload, find_gpu("v100-pcie"), adam));
  EXPECT_NE(b.source.find("batch not recorded, taken as 64"), std::string::npos) << b.source;
  EXPECT_NE(b.source.find("adam step from the compute model"), std::string::npos) << b.source;
  EXPECT_NE(b.source.find("measured on an unrecorded device"), std::string::npos) << b.source;
}

TEST(ProfileWorkload, RefusesWhatItCannotConvert) {
  EXPECT_EQ(error_of(profile_with("# precision: fp32\n")).rfind(
                "p.csv:2: precision: expected fp16 as model.precision in ", 0),
            0u);
  EXPECT_NE(error_of(profile_with("# optimizer: sgd\n")).find("p.csv:2: optimizer: expected adam"),
            std::string::npos);
  EXPECT_NE(error_of(profile_with("# gpu: NVIDIA A100-SXM4-80GB\n"))
                .find("p.csv:2: gpu: expected a v100-pcie as gpu.type in "),
            std::string::npos);
  EXPECT_NE(error_of(profile_with("# step_s: 0.005\n"))
                .find("p.csv:2: step_s: expected at least the layers' forward + backward"),
            std::string::npos);
  EXPECT_NE(error_of(profile_with("").replace(profile_with("").find("1000"), 4, "1001"))
                .find("p.csv:4: grad_bytes: expected multiples of the gradient element size (2 B"),
            std::string::npos);
  EXPECT_NE(error_of(profile_with("# precision: fp8\n")).find("p.csv:2: precision: expected fp32"),
            std::string::npos);
}

TEST(ProfileWorkload, KnownGpuOfTheScenarioAndUnknownDevicesAreTaken) {
  EXPECT_EQ(built(profile_with("# gpu: Tesla V100-PCIE-32GB\n")).source.find("measured on"),
            std::string::npos);
  EXPECT_NE(built(profile_with("# gpu: NVIDIA RTX 6000 Ada Generation\n")).source.find("'NVIDIA RTX 6000 Ada Generation' (not in"),
            std::string::npos);
}

TEST(GpuCatalog, DeviceNamesAsCudaReportsThem) {
  const auto key = [](const std::string& device) {
    const GpuSpec* g = gpu_for_device_name(device);
    return g ? g->name : std::string("none");
  };
  EXPECT_EQ(key("Tesla V100-PCIE-32GB"), "v100-pcie");
  EXPECT_EQ(key("Tesla V100-SXM2-16GB"), "v100-sxm2");
  EXPECT_EQ(key("NVIDIA H100 80GB HBM3"), "h100");
  EXPECT_EQ(key("NVIDIA A100-SXM4-40GB"), "a100-sxm4-40gb");
  EXPECT_EQ(key("NVIDIA A100-SXM4-80GB"), "a100");
  EXPECT_EQ(key("NVIDIA H200"), "h200");
  EXPECT_EQ(key("NVIDIA B200"), "b200");
  EXPECT_EQ(key("NVIDIA L40S"), "l40s");
  EXPECT_EQ(key("NVIDIA GeForce RTX 2080 Ti"), "rtx2080ti");
  EXPECT_EQ(key("Tesla T4"), "t4");
  EXPECT_EQ(key("Tesla K80"), "k80");
  EXPECT_EQ(key("NVIDIA A10"), "none");
  EXPECT_EQ(key("NVIDIA GeForce RTX 4090"), "none");
  EXPECT_EQ(key("cpu"), "none");
}

}  // namespace
}  // namespace scalecast
