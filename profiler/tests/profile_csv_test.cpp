// The profile CSV: the exact documented layout, and a round trip through the simulator's own
// reader (sim/formats/profile_csv.h) that is exact to 1 ns; names that cannot be CSV fields are refused.
#include "profiler/profile_csv.h"

#include <gtest/gtest.h>

#include <cmath>
#include <sstream>

#include "sim/formats/profile_csv.h"
#include "sim/io/input_error.h"

namespace scalecast::profiler {
namespace {

Profile sample() {
  Profile p;
  p.model = "resnet50";
  p.batch_per_gpu = 64;
  p.gpu = "NVIDIA H100 80GB HBM3";
  p.iterations = 20;
  p.warmup = 2;
  p.step_s = 0.123456789012;
  p.has_grad_tensor_bytes = true;
  ProfileLayer conv1{"conv1", 1.23, 2.34, 0.01, 0.02, 1, 37632, {37632}};
  ProfileLayer bn1{"bn1", 0.000001, 1.0 / 3.0, 0, 0, 2, 512, {256, 256}};
  ProfileLayer relu{"relu", 0.5, 0.25, 0, 0, 0, 0, {}};
  p.layers = {conv1, bn1, relu};
  return p;
}

std::string text_of(const Profile& p) {
  std::ostringstream out;
  write_profile_csv(out, p);
  return out.str();
}

TEST(ProfileCsv, WritesTheDocumentedLayout) {
  EXPECT_EQ(text_of(sample()),
            "# scalecast profile v1\n"
            "# model: resnet50\n"
            "# batch_per_gpu: 64\n"
            "# gpu: NVIDIA H100 80GB HBM3\n"
            "# iterations: 20\n"
            "# warmup: 2\n"
            "# step_s: 0.123456789\n"
            "layer,forward_ms,backward_ms,grad_tensors,grad_bytes,forward_std_ms,backward_std_ms,"
            "grad_tensor_bytes\n"
            "conv1,1.230000,2.340000,1,37632,0.010000,0.020000,37632\n"
            "bn1,0.000001,0.333333,2,512,0.000000,0.000000,256;256\n"
            "relu,0.500000,0.250000,0,0,0.000000,0.000000,\n");
}

TEST(ProfileCsv, UnknownMetadataIsLeftOut) {
  Profile p = sample();
  p.model.clear();
  p.gpu.clear();
  p.batch_per_gpu = 0;
  p.has_grad_tensor_bytes = false;
  const std::string text = text_of(p);
  EXPECT_EQ(text.find("# model:"), std::string::npos);
  EXPECT_EQ(text.find("# gpu:"), std::string::npos);
  EXPECT_EQ(text.find("# batch_per_gpu:"), std::string::npos);
  EXPECT_NE(text.find("backward_std_ms\nconv1,1.230000,2.340000,1,37632,0.010000,0.020000\n"),
            std::string::npos);
}

TEST(ProfileCsv, RoundTripThroughTheSimulatorReaderIsExactTo1ns) {
  const Profile written = sample();
  const scalecast::Profile read = scalecast::parse_profile_csv(text_of(written), "p.csv", 4);
  EXPECT_EQ(read.metadata.at("model"), "resnet50");
  EXPECT_EQ(read.metadata.at("gpu"), "NVIDIA H100 80GB HBM3");
  EXPECT_EQ(read.workload.batch_per_gpu, 64);
  ASSERT_EQ(read.workload.layers.size(), written.layers.size());
  for (size_t i = 0; i < written.layers.size(); ++i) {
    const Layer& layer = read.workload.layers[i];
    const ProfileLayer& expected = written.layers[i];
    EXPECT_EQ(layer.name, expected.name);
    EXPECT_LE(std::abs(layer.forward_s - expected.forward_ms * 1e-3), 0.5e-9) << layer.name;
    EXPECT_LE(std::abs(layer.backward_s - expected.backward_ms * 1e-3), 0.5e-9) << layer.name;
    EXPECT_EQ(static_cast<int64_t>(layer.grads.size()), expected.grad_tensors);
    EXPECT_EQ(layer.grad_bytes(), expected.grad_bytes);
    for (size_t g = 0; g < layer.grads.size(); ++g) {
      EXPECT_EQ(layer.grads[g].bytes, expected.grad_tensor_bytes[g]);
    }
  }
}

TEST(ProfileCsv, NamesWithCommasQuotesOrHashAreQuotedAndReadBack) {
  for (const std::string name : {"a,b", "quo\"te", "#comment", "#"}) {
    Profile p = sample();
    p.layers[0].name = name;
    const scalecast::Profile back = scalecast::parse_profile_csv(text_of(p), "p.csv", 4);
    ASSERT_EQ(back.workload.layers.size(), p.layers.size()) << name;
    EXPECT_EQ(back.workload.layers[0].name, name);
  }
}

TEST(ProfileCsv, LayersWithoutTimeAreRefused) {
  Profile p = sample();
  for (ProfileLayer& layer : p.layers) layer.forward_ms = layer.backward_ms = 4e-7;  // 0.4 ns
  EXPECT_THROW(text_of(p), InputError);
  p.layers.back().backward_ms = 1e-6;
  EXPECT_NO_THROW(text_of(p));
}

TEST(ProfileCsv, NamesThatNoCsvLineCanHoldAreRefused) {
  for (const std::string bad : {"line\nbreak", "carriage\rreturn", ""}) {
    Profile p = sample();
    p.layers[0].name = bad;
    EXPECT_THROW(text_of(p), InputError) << bad;
  }
  Profile p = sample();
  p.gpu = "two\nlines";
  EXPECT_THROW(text_of(p), InputError);
}

}  // namespace
}  // namespace scalecast::profiler
