// Filling a profile's gradient columns from a zoo model by layer name (torchvision paths).
#include "profiler/model_gradients.h"

#include <gtest/gtest.h>

#include "sim/zoo/zoo.h"

namespace scalecast::profiler {
namespace {

TEST(ModelGradients, MatchesZooLayersByName) {
  const Workload resnet = zoo::build_model("resnet50", zoo::ModelOptions{});
  Profile profile;
  for (const char* name : {"conv1", "bn1", "relu", "layer1.0.conv1", "not_a_layer"}) {
    profile.layers.push_back(ProfileLayer{name, 1, 2, 0, 0, 0, 0, {}});
  }
  const std::vector<std::string> warnings = fill_gradients(profile, resnet);
  EXPECT_EQ(profile.model, "resnet50");
  EXPECT_TRUE(profile.has_grad_tensor_bytes);
  const ProfileLayer& conv1 = profile.layers[0];
  EXPECT_EQ(conv1.grad_tensors, 1);
  EXPECT_EQ(conv1.grad_bytes, 64 * 3 * 7 * 7 * 4);  // 7x7 conv, no bias, fp32
  EXPECT_EQ(conv1.grad_tensor_bytes, (std::vector<int64_t>{37632}));
  EXPECT_EQ(profile.layers[1].grad_tensors, 2);  // batch norm weight and bias
  EXPECT_EQ(profile.layers[1].grad_bytes, 2 * 64 * 4);
  EXPECT_EQ(profile.layers[2].grad_tensors, 0);
  EXPECT_EQ(profile.layers[3].grad_bytes, 64 * 64 * 4);
  EXPECT_EQ(profile.layers[4].grad_tensors, 0);
  ASSERT_EQ(warnings.size(), 1u);  // most of resnet50's gradients were not profiled
  EXPECT_NE(warnings[0].find("of model 'resnet50' with gradients"), std::string::npos);
}

TEST(ModelGradients, FullMatchHasNoWarningAndKeepsEveryByte) {
  const Workload resnet = zoo::build_model("resnet18", zoo::ModelOptions{});
  Profile profile;
  for (const Layer& layer : resnet.layers) {
    bool seen = false;
    for (const ProfileLayer& p : profile.layers) seen = seen || p.name == layer.name;
    if (!seen) profile.layers.push_back(ProfileLayer{layer.name, 1, 1, 0, 0, 0, 0, {}});
  }
  EXPECT_TRUE(fill_gradients(profile, resnet).empty());
  int64_t bytes = 0;
  for (const ProfileLayer& p : profile.layers) bytes += p.grad_bytes;
  EXPECT_EQ(bytes, resnet.grad_bytes());
}

}  // namespace
}  // namespace scalecast::profiler
