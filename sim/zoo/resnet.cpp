// torchvision ResNet-18/50/101 built layer by layer from their shapes.
// Reference: torchvision/models/resnet.py (BasicBlock, Bottleneck with stride on conv2, ResNet).
#include <array>
#include <stdexcept>
#include <string>

#include "sim/io/input_error.h"
#include "sim/zoo/families.h"
#include "sim/zoo/layers.h"

namespace scalecast::zoo {
namespace {

struct ResNetSpec {
  bool bottleneck = false;
  std::array<int, 4> blocks{};
};

ResNetSpec spec_for(int depth) {
  switch (depth) {
    case 18: return {false, {2, 2, 2, 2}};
    case 50: return {true, {3, 4, 6, 3}};
    case 101: return {true, {3, 4, 23, 3}};
    default: throw InputError("resnet: unsupported depth " + std::to_string(depth));
  }
}

FeatureMap conv_bn(NetBuilder& net, const std::string& prefix, const std::string& index,
                   const FeatureMap& in, const ConvSpec& spec) {
  const FeatureMap out = conv2d(net, prefix + "conv" + index, in, spec);
  return batchnorm2d(net, prefix + "bn" + index, out);
}

// The residual tail shared by both block types: optional downsample, add, ReLU.
FeatureMap shortcut_add_relu(NetBuilder& net, const std::string& prefix, const FeatureMap& in,
                             const FeatureMap& out, int64_t stride) {
  if (stride != 1 || in.channels != out.channels) {
    const FeatureMap down = conv2d(net, prefix + "downsample.0", in,
                                   ConvSpec{.out_channels = out.channels, .stride = stride});
    batchnorm2d(net, prefix + "downsample.1", down);
  }
  elementwise(net, prefix + "add", "add", out.elements(), 1, 2);
  elementwise(net, prefix + "relu", "relu", out.elements(), 1);
  return out;
}

FeatureMap basic_block(NetBuilder& net, const std::string& prefix, const FeatureMap& in,
                       int64_t planes, int64_t stride) {
  FeatureMap x = conv_bn(
      net, prefix, "1", in,
      ConvSpec{.out_channels = planes, .kernel = 3, .stride = stride, .padding = 1});
  elementwise(net, prefix + "relu", "relu", x.elements(), 1);
  x = conv_bn(net, prefix, "2", x, ConvSpec{.out_channels = planes, .kernel = 3, .padding = 1});
  return shortcut_add_relu(net, prefix, in, x, stride);
}

FeatureMap bottleneck(NetBuilder& net, const std::string& prefix, const FeatureMap& in,
                      int64_t planes, int64_t stride) {
  constexpr int64_t kExpansion = 4;
  FeatureMap x = conv_bn(net, prefix, "1", in, ConvSpec{.out_channels = planes});
  elementwise(net, prefix + "relu", "relu", x.elements(), 1);
  x = conv_bn(net, prefix, "2", x,
              ConvSpec{.out_channels = planes, .kernel = 3, .stride = stride, .padding = 1});
  elementwise(net, prefix + "relu", "relu", x.elements(), 1);
  x = conv_bn(net, prefix, "3", x, ConvSpec{.out_channels = planes * kExpansion});
  return shortcut_add_relu(net, prefix, in, x, stride);
}

}  // namespace

Workload build_resnet(int depth, const ModelOptions& options) {
  const ResNetSpec spec = spec_for(depth);
  NetBuilder net(options.bytes_per_element, ParamStyle::kTorch);
  FeatureMap x{3, options.image_size, options.image_size};
  x = conv2d(net, "conv1", x, ConvSpec{.out_channels = 64, .kernel = 7, .stride = 2, .padding = 3});
  x = batchnorm2d(net, "bn1", x);
  elementwise(net, "relu", "relu", x.elements(), 1);
  x = pool2d(net, "maxpool", "maxpool", x, PoolSpec{.kernel = 3, .stride = 2, .padding = 1});
  for (int stage = 0; stage < 4; ++stage) {
    const int64_t planes = int64_t{64} << stage;
    for (int block = 0; block < spec.blocks[stage]; ++block) {
      const std::string prefix =
          "layer" + std::to_string(stage + 1) + "." + std::to_string(block) + ".";
      const int64_t stride = (stage > 0 && block == 0) ? 2 : 1;
      x = spec.bottleneck ? bottleneck(net, prefix, x, planes, stride)
                          : basic_block(net, prefix, x, planes, stride);
    }
  }
  x = adaptive_avgpool2d(net, "avgpool", x, 1);
  linear(net, "fc", 1, x.elements(), options.num_classes);
  return net.finish();
}

}  // namespace scalecast::zoo
