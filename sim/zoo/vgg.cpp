// torchvision VGG-16 (configuration "D", no batch norm) built layer by layer from its shapes.
// Reference: torchvision/models/vgg.py (cfgs["D"], make_layers, VGG.classifier).
#include <string>
#include <vector>

#include "sim/zoo/families.h"
#include "sim/zoo/layers.h"

namespace scalecast::zoo {

Workload build_vgg16(const ModelOptions& options) {
  constexpr int kMaxPool = 0;  // "M" in torchvision's configuration list
  const std::vector<int> config = {64,  64,  kMaxPool, 128, 128, kMaxPool, 256, 256, 256, kMaxPool,
                                   512, 512, 512, kMaxPool, 512, 512, 512, kMaxPool};
  NetBuilder net(options.bytes_per_element, ParamStyle::kTorch);
  FeatureMap x{3, options.image_size, options.image_size};
  int index = 0;  // position in the features Sequential
  auto next_name = [&index](const std::string& container) {
    return container + "." + std::to_string(index++);
  };
  for (const int channels : config) {
    if (channels == kMaxPool) {
      x = pool2d(net, next_name("features"), "maxpool", x, PoolSpec{.kernel = 2, .stride = 2});
      continue;
    }
    x = conv2d(net, next_name("features"), x,
               ConvSpec{.out_channels = channels, .kernel = 3, .padding = 1, .bias = true});
    elementwise(net, next_name("features"), "relu", x.elements(), 1);
  }
  x = adaptive_avgpool2d(net, "avgpool", x, 7);
  index = 0;
  const int64_t hidden = 4096;
  linear(net, next_name("classifier"), 1, x.elements(), hidden);
  elementwise(net, next_name("classifier"), "relu", hidden, 1);
  elementwise(net, next_name("classifier"), "dropout", hidden, 1);
  linear(net, next_name("classifier"), 1, hidden, hidden);
  elementwise(net, next_name("classifier"), "relu", hidden, 1);
  elementwise(net, next_name("classifier"), "dropout", hidden, 1);
  linear(net, next_name("classifier"), 1, hidden, options.num_classes);
  return net.finish();
}

}  // namespace scalecast::zoo
