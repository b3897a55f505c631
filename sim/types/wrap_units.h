// The units sharded data parallel wraps a model into (FSDP's transformer auto-wrap policy): one
// per block (a transformer layer, a ResNet bottleneck), and the runs of layers outside the blocks.
#pragma once

#include <string>
#include <vector>

#include "sim/types/workload.h"

namespace scalecast {

struct WrapUnit {
  int first_layer = 0;  // forward order, inclusive
  int last_layer = 0;
  double parameters = 0;
  double grad_bytes = 0;
  // Layers outside every block (embeddings, the final norm, the head): FSDP's root unit, which it
  // does not reshard between the forward and the backward.
  bool root = false;
};

// The block a layer belongs to: its name up to the first dotted part that is a number
// ("transformer.h.3" of "transformer.h.3.attn.c_attn", "layer1.0" of "layer1.0.conv1"); empty
// outside every block.
std::string block_of(const std::string& layer_name);

// Consecutive layers of one block form a unit; so do consecutive layers outside the blocks.
std::vector<WrapUnit> wrap_units(const Workload& workload);

}  // namespace scalecast
