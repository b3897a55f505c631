// Activation checkpointing as training code runs it (model.activation_checkpointing): what each
// mode keeps for the backward pass and runs again in it (docs/MODEL.md, "Compute" and "Memory").
#pragma once

namespace scalecast {

// none: every activation kept. full: torch.utils.checkpoint around each transformer block (HF's
// gradient_checkpointing, Megatron's recompute_granularity=full), or around every N-th block
// (torchtitan's selective layer checkpointing, selective_ac_option N): the block's input kept,
// its forward run again in its backward. selective: Megatron-LM's (Korthikanti et al., MLSys
// 2023): the attention core (Q K^T, softmax, its dropout, the product with V) run again, the rest
// kept. selective_op: torchtitan's selective op checkpointing (selective_ac_option "op"): each
// block keeps the outputs of its fused attention and of every other matrix product (the 1st,
// 3rd, ... in forward order) and runs the rest of its forward again.
enum class Checkpointing { none, full, selective, selective_op };

// What a run's backward recomputes, for the compute model and the memory estimate.
struct Recompute {
  Checkpointing mode = Checkpointing::none;
  int every = 1;                 // full: every N-th transformer block (the N-th, 2N-th, ...)
  bool fused_attention = false;  // selective_op: a fused attention kernel is kept, eager attention recomputed
};

}  // namespace scalecast
