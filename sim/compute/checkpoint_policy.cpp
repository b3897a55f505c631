// Checkpointing's wrapped blocks and torchtitan's per-op policy (_custom_policy in
// torchtitan/models/llama3/infra/parallelize.py), read once for compute and memory.
#include "sim/compute/checkpoint_policy.h"

#include "sim/zoo/layers.h"

namespace scalecast::compute {

std::string checkpointed_block(const std::string& layer, const Recompute& how) {
  if (how.mode != Checkpointing::full && how.mode != Checkpointing::selective_op) return {};
  // block_index is -1 outside a block, which no N-th block matches.
  if (how.mode == Checkpointing::full && how.every > 1 && (zoo::block_index(layer) + 1) % how.every != 0) return {};
  return zoo::block_of(layer);
}

std::vector<bool> kept_by_op_policy(const Workload& workload, bool fused_attention) {
  std::vector<bool> kept(workload.layers.size(), false);
  std::string block;
  int products = 0;
  for (std::size_t i = 0; i < workload.layers.size(); ++i) {
    const Layer& layer = workload.layers[i];
    const std::string now = zoo::block_of(layer.name);
    if (now != block) block = now, products = 0;
    if (block.empty()) continue;
    kept[i] = (layer.kind == "linear" && ++products % 2 == 1) || (fused_attention && layer.kind == "attention");
  }
  return kept;
}

}  // namespace scalecast::compute
