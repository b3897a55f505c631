// ray-project/distml's JAX stax ResNet-18/50/101 on MNIST (28x28x1, 10 classes), as benchmarked.
// Reference: ray-project/distml (GitHub) examples/jax/jax_util/resnet.py and mnist_jax_example.py.
#include <array>
#include <stdexcept>
#include <string>

#include "sim/io/input_error.h"
#include "sim/zoo/families.h"
#include "sim/zoo/layers.h"

namespace scalecast::zoo {
namespace {

constexpr int64_t kImageSize = 28;  // input_shape = (28, 28, 1, batch_size)
constexpr int64_t kClasses = 10;
constexpr double kLogSoftmaxFlopsPerElement = 4;  // max, subtract, exp-sum, log-subtract

// stax Conv has a bias; 'SAME' 3x3 keeps the size, the default 'VALID' 1x1 strides down.
FeatureMap conv_bn(NetBuilder& net, const std::string& prefix, const FeatureMap& in,
                   int64_t channels, int64_t kernel, int64_t stride) {
  const FeatureMap x = conv2d(net, prefix + "conv", in,
                              ConvSpec{.out_channels = channels,
                                       .kernel = kernel,
                                       .stride = stride,
                                       .padding = (kernel - 1) / 2,
                                       .bias = true});
  return batchnorm2d(net, prefix + "bn", x);
}

// ConvBlock (projection shortcut, stride on the first 1x1 conv) when `out_channels` is given,
// IdentityBlock (the main path returns to the input's channels) otherwise.
FeatureMap block(NetBuilder& net, const std::string& prefix, const FeatureMap& in,
                 int64_t filters, int64_t out_channels, int64_t stride) {
  const bool projection = out_channels > 0;
  const int64_t channels = projection ? out_channels : in.channels;
  FeatureMap x = conv_bn(net, prefix + "main.1.", in, filters, 1, stride);
  elementwise(net, prefix + "main.1.relu", "relu", x.elements(), 1);
  x = conv_bn(net, prefix + "main.2.", x, filters, 3, 1);
  elementwise(net, prefix + "main.2.relu", "relu", x.elements(), 1);
  x = conv_bn(net, prefix + "main.3.", x, channels, 1, 1);
  if (projection) conv_bn(net, prefix + "shortcut.", in, channels, 1, stride);
  elementwise(net, prefix + "fan_in_sum", "add", x.elements(), 1, 2);
  elementwise(net, prefix + "relu", "relu", x.elements(), 1);
  return x;
}

// BasicBlock: two 'SAME' 3x3 convs and a 1x1 projection shortcut, all at `stride`.
FeatureMap basic_block(NetBuilder& net, const std::string& prefix, const FeatureMap& in,
                       int64_t filters, int64_t stride) {
  FeatureMap x = conv_bn(net, prefix + "main.1.", in, filters, 3, stride);
  elementwise(net, prefix + "main.1.relu", "relu", x.elements(), 1);
  x = conv_bn(net, prefix + "main.2.", x, filters, 3, stride);
  conv_bn(net, prefix + "shortcut.", in, filters, 1, stride);
  elementwise(net, prefix + "fan_in_sum", "add", x.elements(), 1, 2);
  elementwise(net, prefix + "relu", "relu", x.elements(), 1);
  return x;
}

// ResNet18 as the source writes it, which differs from the torchvision shape in three ways that
// set its size: the stem has 1 output channel; every BasicBlock keeps stax's default stride
// (1, 1), so the 6x6 map after the max pool is never reduced; and AvgPool((7, 7), 'SAME') with
// stride 1 keeps it 6x6, so the classifier sees 6 * 6 * 512 = 18,432 features (184,330 params).
// The README's 8,706,622 total is this network with 512 classifier inputs (5,130 params):
// 179,200 fewer. Each stage is BasicBlock then IdentityBlock: 4 + 8 * 12 + 2 = 102 tensors.
Workload build_resnet18(const ModelOptions& options) {
  NetBuilder net(options.bytes_per_element, ParamStyle::kStax);
  // GeneralConv(('HWCN', 'OIHW', 'NHWC'), 1, (7, 7), (2, 2), 'SAME'), BatchNorm, Relu, MaxPool.
  FeatureMap x = conv_bn(net, "stem.", FeatureMap{1, kImageSize, kImageSize}, 1, 7, 2);
  elementwise(net, "stem.relu", "relu", x.elements(), 1);
  x = pool2d(net, "stem.maxpool", "maxpool", x, PoolSpec{.kernel = 3, .stride = 2});
  for (int stage = 0; stage < 4; ++stage) {
    const int64_t filters = int64_t{64} << stage;
    const std::string prefix = "stage" + std::to_string(stage + 1) + ".";
    x = basic_block(net, prefix + "0.", x, filters, 1);
    x = block(net, prefix + "1.", x, filters, 0, 1);
  }
  x = pool2d(net, "avgpool", "avgpool", x, PoolSpec{.kernel = 7, .stride = 1, .padding = 3});
  linear(net, "dense", 1, x.elements(), kClasses);
  elementwise(net, "log_softmax", "softmax", kClasses, kLogSoftmaxFlopsPerElement);
  return net.finish();
}

}  // namespace

Workload build_distml_resnet(int depth, const ModelOptions& options) {
  if (depth == 18) return build_resnet18(options);
  if (depth != 50 && depth != 101) {
    throw InputError("distml resnet: unsupported depth " + std::to_string(depth) +
                     " (18, 50 or 101)");
  }
  const std::array<int, 4> blocks = {3, 4, depth == 50 ? 6 : 23, 3};
  NetBuilder net(options.bytes_per_element, ParamStyle::kStax);
  // GeneralConv(('HWCN', 'OIHW', 'NHWC'), 64, (7, 7), (2, 2), 'SAME'), BatchNorm, Relu, MaxPool.
  FeatureMap x = conv_bn(net, "stem.", FeatureMap{1, kImageSize, kImageSize}, 64, 7, 2);
  elementwise(net, "stem.relu", "relu", x.elements(), 1);
  x = pool2d(net, "stem.maxpool", "maxpool", x, PoolSpec{.kernel = 3, .stride = 2});
  for (int stage = 0; stage < 4; ++stage) {
    const int64_t filters = int64_t{64} << stage;
    for (int i = 0; i < blocks[stage]; ++i) {
      const std::string prefix =
          "stage" + std::to_string(stage + 1) + "." + std::to_string(i) + ".";
      x = i == 0 ? block(net, prefix, x, filters, 4 * filters, stage == 0 ? 1 : 2)
                 : block(net, prefix, x, filters, 0, 1);
    }
  }
  // AvgPool((7, 7), padding='SAME') with stride 1; the map is 1x1 by now. Then Flatten, Dense.
  x = pool2d(net, "avgpool", "avgpool", x, PoolSpec{.kernel = 7, .stride = 1, .padding = 3});
  linear(net, "dense", 1, x.elements(), kClasses);
  elementwise(net, "log_softmax", "softmax", kClasses, kLogSoftmaxFlopsPerElement);
  return net.finish();
}

}  // namespace scalecast::zoo
