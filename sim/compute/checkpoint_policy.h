// Which layers an activation checkpointing mode wraps, and which outputs torchtitan's per-op
// policy keeps inside them: the one reading of each mode the compute model and the memory walk share.
#pragma once

#include <string>
#include <vector>

#include "sim/types/checkpointing.h"
#include "sim/types/workload.h"

namespace scalecast::compute {

// The transformer block whose forward the mode runs again for this layer, empty where none does:
// each block under full (with every N, the N-th, 2N-th, ...) and under selective_op.
std::string checkpointed_block(const std::string& layer, const Recompute& how);

// Per layer, whether torchtitan's per-op policy keeps its output: every other matrix product of
// a block (the 1st, 3rd, ... in forward order: aten.mm counted per block) and, with fused
// attention, SDPA's kernel (its output and log-sum-exp). Layers outside blocks: false.
std::vector<bool> kept_by_op_policy(const Workload& workload, bool fused_attention);

}  // namespace scalecast::compute
