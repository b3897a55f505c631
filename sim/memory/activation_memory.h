// What autograd keeps for the backward pass of a zoo model, by mechanism (docs/MODEL.md, "Memory
// per GPU"): each layer kind saves what PyTorch's derivative saves (its input, its output, a
// dropout mask, max-pool indices), in-place layers (torchvision's ReLU, ResNet's `out +=
// identity`) share their input's storage, and under autocast the ops PyTorch runs in fp32
// (softmax, layer norm, the loss) keep fp32 tensors while matmuls keep fp16 copies.
#pragma once

#include <cstdint>

#include "sim/scenario/scenario.h"
#include "sim/types/workload.h"

namespace scalecast {

struct ActivationMemory {
  double saved_bytes = 0;      // tensors autograd keeps from the forward pass, per sample
  double transient_bytes = 0;  // largest live temporaries at the peak, per sample: the gradient of
                               // the largest activation and the one it produces; with
                               // checkpointing, one block's (full) or one attention core's
                               // (selective) recomputed activations
  double largest_tensor_bytes = 0;  // per sample
};

// Per sample; multiply by the batch. `seq_len` sizes fused attention's log-sum-exp.
ActivationMemory activation_memory(const Workload& workload, const ModelSettings& model);

}  // namespace scalecast
