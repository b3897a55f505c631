// Bytes the memory-bound kernels of one layer read and write, forward and backward, by kind of
// layer, as PyTorch's eager CUDA kernels move them; and the layout transposes of channels-first convs.
#pragma once

#include <string>

namespace scalecast::compute {

struct Traffic {
  double forward = 0;   // bytes read and written by the forward pass's kernels
  double backward = 0;  // bytes read and written by the backward pass's kernels
};

// A streaming layer's activation traffic for a batch: `in` and `out` are the bytes of its inputs
// and output at the run's activation width, `element_bytes` that width. Each kind counts what its
// kernels touch (docs/MODEL.md, "Compute", streaming kernels): a norm's backward reads the output
// gradient and the input twice (once for the input gradient, once for the weight gradients), a
// residual add's backward is the one sum of the two gradients where its branches forked, dropout
// keeps a one-byte mask, max pooling an eight-byte index per output. Kinds it does not know read
// and write every tensor once forward and twice backward.
Traffic streaming_traffic(const std::string& kind, double in, double out, double element_bytes);

// The same for layers that PyTorch runs as several kernels when they are written out op by op
// (eager modules: Meta's reference Llama, and torchtitan's and IBM FMS's default RMSNorm and
// rotary embedding, computed in fp32): RMSNorm as a cast to fp32, square, mean, scaling by the
// reciprocal root, cast back and weight, with autograd's kernel for each; the rotary embedding as a
// cast to fp32, a complex multiply and a cast back. Every other kind is one kernel either way, as
// in streaming_traffic.
Traffic eager_module_traffic(const std::string& kind, double in, double out, double element_bytes);

// Compiled kernels (XLA, torch.compile) fold the ReLU and the residual add that follow a
// BatchNorm into the BatchNorm's own passes, for the batch's `out` bytes of the folded layer's
// output. Forward, the normalising pass applies them as it writes: the ReLU costs nothing, the add
// reads the shortcut. Backward, the ReLU's mask is read from the saved output in both of the
// BatchNorm's passes (its reduction and its input gradient), and the add writes the shortcut's
// gradient, which the two branches' sum where they forked reads again.
Traffic batchnorm_epilogue_traffic(const std::string& kind, double out);

// Whether a layer of this kind after a BatchNorm (or after such a folded add) is folded into it.
bool folds_into_batchnorm(const std::string& kind);

// The transposes cuDNN runs around a tensor-core convolution whose tensors are channels-first
// (NCHW), for a batch's input and output bytes: the forward transposes the input to NHWC and its
// kernel writes the output back in NCHW; the backward transposes the output gradient for the input
// gradient, and the input and the output gradient again for the weight gradient, each read once
// and written once (NVIDIA, "Convolutional Layers User's Guide", section "Tensor Layouts In Memory:
// NCHW vs NHWC": "NCHW layouts can still be operated on by Tensor Cores, but include some overhead
// due to automatic transpose operations").
Traffic nchw_transposes(double in, double out);

// Kernels the transposes above launch: one forward, three backward.
inline constexpr int kNchwTransposesForward = 1;
inline constexpr int kNchwTransposesBackward = 3;

}  // namespace scalecast::compute
