// Activation checkpointing as training code runs it (model.activation_checkpointing): what each
// mode keeps for the backward pass and runs again in it (docs/MODEL.md, "Compute" and "Memory").
#pragma once

namespace scalecast {

// none: every activation kept. full: torch.utils.checkpoint around each transformer block (HF's
// gradient_checkpointing, Megatron's recompute_granularity=full): the block's input kept, its
// forward run again in its backward. selective: Megatron-LM's (Korthikanti et al., MLSys 2023):
// the attention core (Q K^T, softmax, its dropout, the product with V) run again, the rest kept.
enum class Checkpointing { none, full, selective };

}  // namespace scalecast
