// Units by block name: the dotted name's first numeric part closes the block's prefix, as the
// zoo and PyTorch's module lists name layers (transformer.h.3, bert.encoder.layer.3, layer1.0).
#include "sim/types/wrap_units.h"

#include <algorithm>
#include <cctype>

namespace scalecast {

std::string block_of(const std::string& name) {
  std::size_t start = 0;
  while (start < name.size()) {
    const std::size_t dot = std::min(name.find('.', start), name.size());
    const bool number = dot > start && std::all_of(name.begin() + static_cast<std::ptrdiff_t>(start),
                                                   name.begin() + static_cast<std::ptrdiff_t>(dot),
                                                   [](unsigned char c) { return std::isdigit(c) != 0; });
    // A number that is the whole name's last part is a layer, not a block ("0" of "features.0").
    if (number && dot < name.size()) return name.substr(0, dot);
    start = dot + 1;
  }
  return {};
}

std::vector<WrapUnit> wrap_units(const Workload& w) {
  std::vector<WrapUnit> units;
  std::string current;
  for (int l = 0; l < static_cast<int>(w.layers.size()); ++l) {
    const Layer& layer = w.layers[static_cast<std::size_t>(l)];
    const std::string block = block_of(layer.name);
    if (units.empty() || block != current) {
      units.push_back({l, l, 0, 0, block.empty()});
      current = block;
    }
    WrapUnit& u = units.back();
    u.last_layer = l;
    u.parameters += static_cast<double>(layer.parameters());
    u.grad_bytes += static_cast<double>(layer.grad_bytes());
  }
  return units;
}

}  // namespace scalecast
