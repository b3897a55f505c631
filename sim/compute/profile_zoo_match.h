// Which of a zoo model's layers each row of a profile measured, by name: the zoo names its layers
// by the module paths PyTorch gives them, so a profile of a zoo model names the same modules.
#pragma once

#include <cstddef>
#include <vector>

#include "sim/types/workload.h"

namespace scalecast {

// For each profile layer, the indices of the zoo layers it measured. A zoo layer belongs to the
// profile layer named as it is, else to the one named by its longest dotted prefix: a module's
// own time covers the work it runs outside its child modules (a residual add in "layer1.0",
// attention's products and softmax in "bert.encoder.layer.0.attention.self"), and a module run
// more than once (torchvision's one ReLU per bottleneck) sums its calls. A zoo layer no profile
// layer names belongs to none.
std::vector<std::vector<std::size_t>> match_zoo_layers(const Workload& profile, const Workload& zoo);

}  // namespace scalecast
