// torchvision MobileNetV2 (width 1.0) built layer by layer from its shapes.
// Reference: torchvision/models/mobilenetv2.py (InvertedResidual, MobileNetV2).
#include <array>
#include <string>

#include "sim/zoo/families.h"
#include "sim/zoo/layers.h"

namespace scalecast::zoo {
namespace {

constexpr double kRelu6FlopsPerElement = 2;  // min(max(x, 0), 6)

// Conv2dNormActivation: conv (no bias), BatchNorm, ReLU6 as "<prefix>.0/.1/.2".
FeatureMap conv_bn_relu6(NetBuilder& net, const std::string& prefix, const FeatureMap& in,
                         int64_t out_channels, int64_t kernel, int64_t stride, int64_t groups) {
  FeatureMap x = conv2d(net, prefix + ".0", in,
                        ConvSpec{.out_channels = out_channels,
                                 .kernel = kernel,
                                 .stride = stride,
                                 .padding = (kernel - 1) / 2,
                                 .groups = groups});
  x = batchnorm2d(net, prefix + ".1", x);
  elementwise(net, prefix + ".2", "relu", x.elements(), kRelu6FlopsPerElement);
  return x;
}

FeatureMap inverted_residual(NetBuilder& net, const std::string& prefix, const FeatureMap& in,
                             int64_t out_channels, int64_t stride, int64_t expand_ratio) {
  const int64_t hidden = in.channels * expand_ratio;
  int index = 0;  // position in the block's conv Sequential
  auto next_name = [&]() { return prefix + ".conv." + std::to_string(index++); };
  FeatureMap x = in;
  if (expand_ratio != 1) x = conv_bn_relu6(net, next_name(), x, hidden, 1, 1, 1);
  x = conv_bn_relu6(net, next_name(), x, hidden, 3, stride, hidden);
  x = conv2d(net, next_name(), x, ConvSpec{.out_channels = out_channels});
  x = batchnorm2d(net, next_name(), x);
  if (stride == 1 && in.channels == out_channels) {
    elementwise(net, prefix + ".add", "add", x.elements(), 1, 2);
  }
  return x;
}

struct StageSetting {
  int64_t expand_ratio;  // t
  int64_t channels;      // c
  int repeats;           // n
  int64_t stride;        // s
};

}  // namespace

Workload build_mobilenet_v2(const ModelOptions& options) {
  constexpr std::array<StageSetting, 7> kSettings{{{1, 16, 1, 1},
                                                   {6, 24, 2, 2},
                                                   {6, 32, 3, 2},
                                                   {6, 64, 4, 2},
                                                   {6, 96, 3, 1},
                                                   {6, 160, 3, 2},
                                                   {6, 320, 1, 1}}};
  constexpr int64_t kLastChannels = 1280;
  NetBuilder net(options.bytes_per_element, ParamStyle::kTorch);
  FeatureMap x{3, options.image_size, options.image_size};
  int feature = 0;  // position in the features Sequential
  x = conv_bn_relu6(net, "features.0", x, 32, 3, 2, 1);
  for (const StageSetting& stage : kSettings) {
    for (int i = 0; i < stage.repeats; ++i) {
      x = inverted_residual(net, "features." + std::to_string(++feature), x, stage.channels,
                            i == 0 ? stage.stride : 1, stage.expand_ratio);
    }
  }
  x = conv_bn_relu6(net, "features." + std::to_string(++feature), x, kLastChannels, 1, 1, 1);
  x = adaptive_avgpool2d(net, "adaptive_avg_pool2d", x, 1);
  elementwise(net, "classifier.0", "dropout", x.elements(), 1);
  linear(net, "classifier.1", 1, x.elements(), options.num_classes);
  return net.finish();
}

}  // namespace scalecast::zoo
