// Tests of the ray-project/distml stax ResNet18 (MNIST) as its source defines it: parameter and
// tensor counts, and where its size departs from the count distml's README publishes.
#include <gtest/gtest.h>

#include <cstdint>
#include <stdexcept>

#include "sim/io/input_error.h"
#include "sim/zoo/families.h"

namespace scalecast::zoo {
namespace {

const Layer& layer_named(const Workload& w, const std::string& name) {
  for (const Layer& layer : w.layers)
    if (layer.name == name) return layer;
  throw std::out_of_range("no layer " + name);
}

// distml's README gives 8,706,622 parameters. Built as examples/jax/jax_util/resnet.py writes it,
// the network has 8,885,822: every BasicBlock keeps stax's default stride (1, 1) and
// AvgPool((7, 7), padding='SAME') has stride 1, so the 6x6 map after the stem's max pool reaches
// Flatten unchanged and Dense(10) sees 6 * 6 * 512 = 18,432 features (184,330 parameters). The
// README's figure matches the same layers with 512 classifier inputs (5,130 parameters): the
// difference is (18,432 - 512) * 10 = 179,200. All 102 tensors match.
TEST(ZooDistml, ResNet18CountsFollowTheSource) {
  const Workload w = build_distml_resnet(18, ModelOptions{});
  EXPECT_EQ(w.parameters(), 8'885'822);
  EXPECT_EQ(w.grad_tensor_count(), 102);
  EXPECT_EQ(w.grad_bytes(), 4 * 8'885'822);
  const Layer& dense = layer_named(w, "dense");
  ASSERT_EQ(dense.grads.size(), 2u);
  EXPECT_EQ(dense.grads[0].elements, 6 * 6 * 512 * 10);
  EXPECT_EQ(dense.grads[1].elements, 10);
  const int64_t readme_parameters = 8'706'622;
  EXPECT_EQ(w.parameters() - readme_parameters, (6 * 6 * 512 - 512) * 10);
}

// The stem conv has one output channel (GeneralConv(..., 1, (7, 7), ...)): 49 weights, 1 bias.
TEST(ZooDistml, ResNet18StemAndNames) {
  const Workload w = build_distml_resnet(18, ModelOptions{});
  const Layer& stem = w.layers.front();
  ASSERT_EQ(stem.grads.size(), 2u);
  EXPECT_EQ(stem.grads[0].name, "stem.conv.W");
  EXPECT_EQ(stem.grads[0].elements, 49);
  EXPECT_EQ(stem.grads[1].elements, 1);
  // A BasicBlock's projection shortcut: 1x1 conv from the stem's single channel to 64.
  EXPECT_EQ(layer_named(w, "stage1.0.shortcut.conv").grads[0].elements, 64);
  EXPECT_EQ(w.layers.back().name, "log_softmax");
}

TEST(ZooDistml, ResNet18HalvesGradientsInFp16) {
  ModelOptions fp16;
  fp16.bytes_per_element = 2;
  EXPECT_EQ(build_distml_resnet(18, fp16).grad_bytes(), 2 * 8'885'822);
}

TEST(ZooDistml, RejectsOtherDepths) {
  EXPECT_THROW(build_distml_resnet(34, ModelOptions{}), InputError);
}

}  // namespace
}  // namespace scalecast::zoo
