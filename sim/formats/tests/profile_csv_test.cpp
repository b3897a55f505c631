// Tests of the profile CSV reader: metadata, per-tensor sizes, and one clear error (file, line,
// column) for truncated or malformed profiles.
#include <gtest/gtest.h>

#include "sim/formats/profile_csv.h"
#include "sim/io/input_error.h"
#include "sim/zoo/zoo.h"

namespace scalecast {
namespace {

const char* kGood =
    "# scalecast profile v1\n"
    "# model: tiny\n"
    "# batch_per_gpu: 16\n"
    "layer,forward_ms,backward_ms,grad_tensors,grad_bytes,forward_std_ms,backward_std_ms,grad_tensor_bytes\n"
    "conv1,1.5,3.0,2,4100,0.01,0.02,4096;4\n"
    "relu1,0.25,0.5,0,0,0,0,\n"
    "fc,0.5,1.0,1,400,0,0,400\n";

TEST(ProfileCsv, ReadsLayersTimesAndTensors) {
  const Profile p = parse_profile_csv(kGood, "p.csv", 4);
  const Workload& w = p.workload;
  EXPECT_EQ(w.model, "tiny");
  EXPECT_EQ(w.batch_per_gpu, 16);
  ASSERT_EQ(w.layers.size(), 3u);
  EXPECT_DOUBLE_EQ(w.layers[0].forward_s, 1.5e-3);
  EXPECT_DOUBLE_EQ(w.layers[0].backward_s, 3e-3);
  ASSERT_EQ(w.layers[0].grads.size(), 2u);
  EXPECT_EQ(w.layers[0].grads[1].bytes, 4);
  EXPECT_EQ(w.grad_bytes(), 4500);
  EXPECT_EQ(w.grad_tensor_count(), 3);
}

void expect_error(const std::string& text, const std::string& prefix) {
  try {
    parse_profile_csv(text, "p.csv", 4);
    FAIL() << "accepted: " << text;
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()).rfind(prefix, 0), 0u) << e.what();
    EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos);
  }
}

TEST(ProfileCsv, RefusesMalformedProfiles) {
  const std::string header = "layer,forward_ms,backward_ms,grad_tensors,grad_bytes\n";
  expect_error("", "p.csv:1: header");
  expect_error("layer,fwd\nconv,1\n", "p.csv:1: header");
  expect_error(header + "conv1,1.0,2.0,1\n", "p.csv:2: row");           // truncated row
  expect_error(header + "conv1,abc,2.0,1,4\n", "p.csv:2: forward_ms");
  expect_error(header + "conv1,1.0,-2.0,1,4\n", "p.csv:2: backward_ms");
  expect_error(header + "conv1,1.0,2.0,1.5,4\n", "p.csv:2: grad_tensors");
  expect_error(header, "p.csv:1: row");                                 // no layers
  expect_error(header + "conv1,1.0,2.0,0,8\n", "p.csv:2: grad_bytes");
  expect_error("# batch_per_gpu: zero\n" + header + "a,1,1,0,0\n", "p.csv:1: batch_per_gpu");
  expect_error(std::string(kGood).substr(0, 150) + "x,1,1,2,8,0,0,4\n", "p.csv:");
  expect_error("# batch_per_gpu: 16abc\n" + header + "a,1,1,0,0\n", "p.csv:1: batch_per_gpu: expected an integer");
  expect_error(header + "a,1,1,1000000000000000,4\n", "p.csv:2: grad_tensors: expected an integer in [0, 1000000]");
  expect_error(header + "a,1,1,1,9223372036854775807\n", "p.csv:2: grad_bytes: expected an integer in [0, 1000000000000000]");
  expect_error(header + "a,0,0,1,4\n", "p.csv:2: forward_ms: expected layers that take time");
  expect_error(header + "a\xff,1,1,1,4\n", "p.csv:2: layer: expected a layer name in UTF-8, got 'a\\xFF'");
}

// The profiles `scalecast profile` recorded on an H200 (validation/data/h200-gpu-check) read back
// with every gradient tensor of the zoo's model, attributed by layer name, and their layers hold
// less GPU time than torch.profiler summed for the same steps (which adds the loss and optimizer
// kernels) but more than 90% of it.
TEST(ProfileCsv, ProfilesRecordedOnAnH200MatchTheZooAndTorchProfiler) {
  struct Case {
    const char* file;
    const char* model;
    double torch_profiler_ms;  // self CUDA time per step, torch-step-times.json
  };
  for (const Case& c : {Case{"resnet50-bs64-profile.csv", "resnet50", 31.345},
                        Case{"bert-base-bs32-profile.csv", "bert-base", 69.612}}) {
    SCOPED_TRACE(c.file);
    const Profile p =
        read_profile_csv(std::string(SCALECAST_SOURCE_DIR) + "/validation/data/h200-gpu-check/" + c.file, 4);
    const Workload zoo = zoo::build_model(c.model, {});
    EXPECT_EQ(p.workload.grad_tensor_count(), zoo.grad_tensor_count());
    EXPECT_EQ(p.workload.grad_bytes(), zoo.grad_bytes());
    double layers_ms = 0;
    for (const auto& layer : p.workload.layers) layers_ms += 1e3 * (layer.forward_s + layer.backward_s);
    // The layers leave out the loss and the optimizer (outside layers: 1.3 and 3.8 ms).
    EXPECT_LT(layers_ms, c.torch_profiler_ms);
    EXPECT_GT(layers_ms, 0.9 * c.torch_profiler_ms);
  }
}

}  // namespace
}  // namespace scalecast
