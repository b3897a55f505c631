// What each kind of memory-bound layer reads and writes, following PyTorch's ATen CUDA kernels
// (aten/src/ATen/native/cuda: Activation*, Dropout, layer_norm_kernel, Normalization, SoftMax,
// DilatedMaxPool2d, AdaptiveAveragePooling) and autograd's gradient accumulation.
#include "sim/compute/streaming_traffic.h"

namespace scalecast::compute {

Traffic streaming_traffic(const std::string& kind, double in, double out, double element_bytes) {
  const double elements_out = out / element_bytes;
  // Saves its output, and the backward reads the output gradient and the saved output and writes
  // the input gradient (threshold_backward, tanh_backward, softmax_backward_data).
  if (kind == "relu" || kind == "tanh" || kind == "softmax") return {in + out, 2 * out + in};
  // Saves its input: the backward reads the output gradient and the input, writes the input's
  // gradient (gelu_backward, silu_backward); a product of two tensors writes both inputs' gradients.
  if (kind == "gelu" || kind == "silu" || kind == "mul") return {in + out, out + 2 * in};
  if (kind == "dropout") {
    const double mask = elements_out;  // one bool per element
    return {in + out + mask, out + mask + in};
  }
  // The forward reads both addends; the backward hands the output gradient to both unchanged, and
  // the one kernel is autograd's sum of the two gradients where the branches forked.
  if (kind == "add") return {in + out, in + out};
  // LayerNorm / RMSNorm: the input gradient's kernel reads the output gradient and the input and
  // writes the input gradient; the weight gradients' kernel reads both again.
  if (kind == "layernorm" || kind == "rmsnorm") return {in + out, 2 * out + 3 * in};
  // Training BatchNorm reads its input once for the batch statistics and again to normalise; the
  // backward reduces over the output gradient and the input, then reads both again for the input's
  // gradient.
  if (kind == "batchnorm") return {2 * in + out, 2 * out + 3 * in};
  if (kind == "maxpool") {
    const double indices = 8 * elements_out;  // int64 argmax per output
    return {in + out + indices, out + indices + in};
  }
  if (kind == "avgpool" || kind == "rotary") return {in + out, out + in};
  return {in + out, 2 * (in + out)};
}

Traffic eager_module_traffic(const std::string& kind, double in, double out, double element_bytes) {
  const double elements = out / element_bytes, w = element_bytes;
  // A cast to fp32 and one back (read w write 4, read 4 write w), none where the run is fp32.
  const double casts = w == 4 ? 0 : 2 * (w + 4);
  if (kind == "rmsnorm") {
    // Forward: square (read 4, write 4), mean over the row (read 4), x * rsqrt (read 4, write 4),
    // times the weight (read w, write w). Backward: the weight product's two gradients (4 w), the
    // scaling's two (read 4 + 4 twice), the mean's expanded gradient (write 4), the square's (read
    // 4 twice, write 4), the sum of the input's two gradient paths (read 4 twice, write 4).
    return {(casts + 8 + 4 + 8 + 2 * w) * elements, (casts + 4 * w + 16 + 4 + 12 + 12) * elements};
  }
  // Rotary: the complex product of the fp32 pairs with the position's phases (read 4, write 4),
  // its gradient the product with the conjugate phases.
  if (kind == "rotary") return {(casts + 8) * elements, (casts + 8) * elements};
  return streaming_traffic(kind, in, out, element_bytes);
}

bool folds_into_batchnorm(const std::string& kind) { return kind == "relu" || kind == "add"; }

Traffic batchnorm_epilogue_traffic(const std::string& kind, double out) {
  if (kind == "add") return {out, 2 * out};
  return {0, 2 * out};
}

Traffic nchw_transposes(double in, double out) { return {2 * in, 2 * (out + in + out)}; }

}  // namespace scalecast::compute
