// Per-layer times by kind of work: products (conv, linear, attention) by shape at the GPU's
// measured matmul rate, fused attention at its kernels' share of peak, the rest at bandwidth.
#include "sim/compute/compute_model.h"

#include <algorithm>
#include <stdexcept>
#include <utility>
#include <vector>

#include "sim/compute/autocast_widths.h"
#include "sim/compute/checkpoint_policy.h"
#include "sim/compute/kernel_times.h"
#include "sim/compute/streaming_traffic.h"
#include "sim/io/input_error.h"
#include "sim/zoo/layers.h"

namespace scalecast {

namespace {

using compute::KernelRates;
using compute::Product;

constexpr double kFp32Bytes = 4, kHalfBytes = 2;

// Layer byte counts are recorded at 4 bytes per activation (sim/zoo/layers.h); half-width runs
// (fp16, bf16, fp8's bf16 tensors) keep them in 2.
double activation_scale(Precision p) { return half_width(p) ? 0.5 : 1.0; }

// fp8 (Transformer Engine, torchao float8) runs the blocks' Linear layers' products in fp8;
// convolutions, attention and the output head stay in bf16 (Megatron-Core's output layer is not a
// Transformer Engine module; MPT's head is its embedding, tied).
Precision product_precision(const Layer& layer, Precision p) {
  return p == Precision::fp8 && (layer.kind != "linear" || layer.name == "lm_head") ? Precision::bf16 : p;
}

// One flash-attention kernel for a layer's scores-softmax-context: the two products' FLOPs
// (half under a causal mask, whose blocks it skips) forward; backward recomputes the scores, five
// products in all (2.5 x), reading Q, K, V, O and dO and writing dQ, dK, dV (Dao, FlashAttention-2,
// 2023, section 3.1.2).
void time_fused_attention(Layer& scores, const Workload& w, const GpuSpec& gpu,
                          const ComputeModelParams& params) {
  const MatmulShape& s = scores.matmul;  // m = n = sequence, k = head size, count = heads
  const double batch = w.batch_per_gpu;
  const double mask = w.causal_attention ? 0.5 : 1.0;
  const double forward_flops = 4 * s.m * s.n * s.k * s.count * batch * mask;
  const Precision p = product_precision(scores, params.precision);
  const double rate = gpu.peak_flops(p) * fused_attention_efficiency(gpu.compute_capability, params.attention_kernel);
  const double tokens_bytes = s.m * s.k * s.count * batch * element_bytes(p);
  const double bandwidth = gpu.memory_bandwidth * params.memory_efficiency;
  scores.forward_s = std::max(forward_flops / rate, 4 * tokens_bytes / bandwidth) + params.kernel_overhead_s;
  scores.backward_s = std::max(2.5 * forward_flops / rate, 8 * tokens_bytes / bandwidth) + params.kernel_overhead_s;
}

// A layer's input and output bytes for a batch at `input_bytes` and `output_bytes` per activation.
std::pair<double, double> input_output_bytes(const Layer& layer, double batch, double input_bytes,
                                             double output_bytes) {
  return {zoo::input_elements(layer) * input_bytes * batch,
          static_cast<double>(layer.output_elements) * output_bytes * batch};
}

// Tensor cores need NHWC operands: on a GPU that has them, a convolution at a tensor-core
// precision over channels-first tensors pays cuDNN's layout transposes.
bool transposes_layout(const Layer& layer, const GpuSpec& gpu, Precision p, const ComputeModelParams& params) {
  return layer.kind == "conv" && !params.channels_last && p != Precision::fp32 && gpu.compute_capability >= 70;
}

// A ReLU or residual add that compiled kernels fold into the BatchNorm before it
// (compute/streaming_traffic.h): only the bytes it adds to the BatchNorm's passes, no kernel of
// its own.
void time_batchnorm_epilogue(Layer& layer, double batch, double activation_bytes, const KernelRates& rates) {
  const double out = static_cast<double>(layer.output_elements) * activation_bytes * batch;
  const compute::Traffic t = compute::batchnorm_epilogue_traffic(layer.kind, out);
  layer.forward_s = t.forward / rates.bandwidth;
  layer.backward_s = t.backward / rates.bandwidth;
}

// torch.autocast's casts of a product's fp32 weight: to the product's width in the forward (one
// copy per forward: autocast's cache keeps it for that forward only; a recomputed forward casts
// again) and the weight's half-width gradient back to fp32 in the backward (the cast's own
// backward), each one kernel reading one width and writing the other.
void add_autocast_casts(Layer& layer, Precision p, const KernelRates& rates) {
  const double parameters = static_cast<double>(layer.parameters());
  if (parameters == 0) return;
  layer.forward_s += parameters * (kFp32Bytes + element_bytes(p)) / rates.bandwidth + rates.launch_s;
  layer.backward_s += parameters * (kHalfBytes + kFp32Bytes) / rates.bandwidth + rates.launch_s;
}

// Under autocast, the cast a layer runs on its input first (compute/autocast_widths.h): one kernel
// reading one width and writing the other, forward, and the cast's backward on the gradient.
void add_input_cast(Layer& layer, double batch, const KernelRates& rates) {
  const double bytes = zoo::input_elements(layer) * batch * (kFp32Bytes + kHalfBytes);
  layer.forward_s += bytes / rates.bandwidth + rates.launch_s;
  layer.backward_s += bytes / rates.bandwidth + rates.launch_s;
}

// Transformer Engine's fp8 Linear (transformer_engine/pytorch/module/linear.py): in the forward
// its input is cast to fp8 and transposed for the weight gradient (fp8_cast_transpose_fused: 2
// bytes read, 1 + 1 written an element), unless the module before it wrote it so (`input_cast`
// false: TE's LayerNormLinear and LayerNormMLP), and so is its weight, every forward (2 bytes
// read, 4 from fp32 weights); in the backward the output's gradient (fp8_cast_transpose_bgrad_fused).
void add_fp8_casts(Layer& layer, double batch, bool input_cast, const ComputeModelParams& params,
                   const KernelRates& rates) {
  const double cast = kHalfBytes + 2 * element_bytes(Precision::fp8);
  const double weight_read = params.autocast ? kFp32Bytes : kHalfBytes;
  const double parameters = static_cast<double>(layer.parameters());
  const double inputs = input_cast ? zoo::input_elements(layer) * batch : 0;
  const double outputs = static_cast<double>(layer.output_elements) * batch;
  layer.forward_s += (inputs * cast + parameters * (weight_read + 2 * element_bytes(Precision::fp8))) / rates.bandwidth +
                     (input_cast ? 2 : 1) * rates.launch_s;
  layer.backward_s += outputs * cast / rates.bandwidth + rates.launch_s;
}

void time_product_layer(Layer& layer, double batch, const GpuSpec& gpu, const ComputeModelParams& params,
                        bool fp8_input_cast) {
  const Precision p = product_precision(layer, params.precision);
  const KernelRates rates = kernel_rates(gpu, params, p);
  const double bytes = element_bytes(p);
  layer.forward_s = compute::product_s(compute::forward_product(layer.matmul, batch), bytes, rates);
  layer.backward_s = compute::product_s(compute::input_gradient_product(layer.matmul, batch), bytes, rates) +
                     compute::product_s(compute::weight_gradient_product(layer.matmul, batch), bytes, rates);
  if (transposes_layout(layer, gpu, p, params)) {
    const auto [in, out] = input_output_bytes(layer, batch, bytes, bytes);
    const compute::Traffic t = compute::nchw_transposes(in, out);
    layer.forward_s += t.forward / rates.bandwidth + compute::kNchwTransposesForward * rates.launch_s;
    layer.backward_s += t.backward / rates.bandwidth + compute::kNchwTransposesBackward * rates.launch_s;
  }
  if (p == Precision::fp8)
    add_fp8_casts(layer, batch, fp8_input_cast, params, rates);
  else if (params.autocast && half_width(params.precision))
    add_autocast_casts(layer, p, rates);
}

// Training BatchNorm over channels-first (NCHW) tensors reduces each channel in its own thread
// block: ATen's statistics and backward kernels launch one block per channel
// (aten/src/ATen/native/cuda/Normalization.cuh), and cuDNN's, which PyTorch calls unless the input
// is bf16, slow down alike. With fewer channels than SMs the rest of the GPU idles, so the layer
// streams at channels / SMs of the GPU's rate. Compiled kernels (model.kernels: fused) reduce
// over the whole GPU.
KernelRates channel_parallel(KernelRates rates, const Layer& layer, const GpuSpec& gpu,
                             const ComputeModelParams& params) {
  if (layer.kind != "batchnorm" || params.channels_last || !params.eager_modules || layer.grads.empty() ||
      gpu.sms <= 0)
    return rates;
  const double channels = static_cast<double>(layer.grads.front().elements);
  rates.bandwidth *= std::min(1.0, channels / gpu.sms);
  return rates;
}

// Normalisation, activations, elementwise, pooling, softmax, dropout, embedding gathers and the
// loss: their activations at the run's width (the loss's in fp32; under autocast each layer's
// input and output at the widths autocast gives them) as each kind's kernels move them,
// eager modules op by op (compute/streaming_traffic.h), and their parameters at the gradients'
// width, read once forward and twice backward (the weight gradient written too).
void time_streaming_layer(Layer& layer, double batch, const GpuSpec& gpu, const ComputeModelParams& params,
                          const AutocastWidth* autocast) {
  const KernelRates rates = kernel_rates(gpu, params, params.precision);
  const double weight_bytes = static_cast<double>(layer.grad_bytes());
  const bool fp32_loss = layer.kind == "cross_entropy" && !params.fused_loss;
  const double width = fp32_loss ? 1.0 : activation_scale(params.precision);
  const double activation_bytes = autocast ? autocast->output : zoo::kActivationBytes * width;
  const auto [in, out] =
      input_output_bytes(layer, batch, autocast ? autocast->input : activation_bytes, activation_bytes);
  const compute::Traffic t = params.eager_modules
                                 ? compute::eager_module_traffic(layer.kind, in, out, activation_bytes)
                                 : compute::streaming_traffic(layer.kind, in, out, activation_bytes);
  const double flops = layer.kind == "embedding" ? 0 : layer.forward_flops * batch;
  const KernelRates layer_rates = channel_parallel(rates, layer, gpu, params);
  layer.forward_s = compute::streaming_s(t.forward + weight_bytes, flops, layer_rates);
  layer.backward_s = compute::streaming_s(t.backward + 2 * weight_bytes, flops, layer_rates);
}

// Bytes read and written per parameter by one optimizer step in fp32: SGD with momentum reads
// weight, gradient and momentum and writes weight and momentum (5 x 4 B); Adam also reads and
// writes the second moment (7 x 4 B).
double optimizer_bytes_per_parameter(const std::string& optimizer) {
  if (optimizer == "sgd") return 20;
  if (optimizer == "adam") return 28;
  throw InputError("unknown optimizer '" + optimizer + "' (known: sgd, adam)");
}

// The layers whose forward runs again before their backward. Full: the layers of the checkpointed
// blocks (all, or every N-th), as the memory walk drops them; the embeddings, final norm, heads and
// loss stay outside them (HF's gradient checkpointing and Megatron's full recompute wrap the
// transformer layers only). Selective: the
// attention core, from the scores product (Q K^T) to the context product (P V), both included;
// with fused attention that is the one flash kernel, timed on the scores layer. selective_op:
// everything in a block that torchtitan's policy does not keep (compute/checkpoint_policy.h):
// norms, rotary, activations, residual adds, every second product, eager attention's batched
// products.
std::vector<bool> recomputed(const Workload& workload, const Recompute& how) {
  std::vector<bool> again(workload.layers.size(), false);
  const std::vector<bool> kept = how.mode == Checkpointing::selective_op
                                     ? compute::kept_by_op_policy(workload, how.fused_attention)
                                     : std::vector<bool>(workload.layers.size(), false);
  bool in_core = false;
  for (std::size_t i = 0; i < workload.layers.size(); ++i) {
    const Layer& layer = workload.layers[i];
    if (how.mode == Checkpointing::full) {
      again[i] = !compute::checkpointed_block(layer.name, how).empty();
    } else if (how.mode == Checkpointing::selective) {
      if (layer.kind == "attention" && layer.name.ends_with("scores")) in_core = true;
      again[i] = in_core;
      if (layer.kind == "attention" && layer.name.ends_with("context")) in_core = false;
    } else if (how.mode == Checkpointing::selective_op) {
      again[i] = !compute::checkpointed_block(layer.name, how).empty() && !kept[i];
    }
  }
  return again;
}

}  // namespace

double element_bytes(Precision p) {
  if (p == Precision::fp8) return 1;
  return half_width(p) ? 2 : 4;
}

KernelRates kernel_rates(const GpuSpec& gpu, const ComputeModelParams& params, Precision p) {
  const double efficiency =
      params.compute_efficiency > 0 ? params.compute_efficiency : gpu.measured_matmul_efficiency(p);
  return {.matmul_flops = gpu.peak_flops(p) * efficiency,
          .bandwidth = gpu.memory_bandwidth * params.memory_efficiency,
          .vector_flops = gpu.fp32_flops,
          .sms = gpu.sms,
          .launch_s = params.kernel_overhead_s};
}

double fused_attention_efficiency(int compute_capability, AttentionKernel kernel) {
  // FlashAttention-2 (Dao 2023): forward and backward at 50-73% of an A100's peak, the training
  // end to end at 72%; on Hopper it "achieves only 35% utilization" (Shah et al., FlashAttention-3,
  // 2024). Older and newer architectures have no measurement here: Hopper's share is taken. The
  // first generation at its measured ratio to the second on the A100, on every architecture; the
  // third at its ratio to the second on Hopper.
  const double second = compute_capability == 80 || compute_capability == 86 ? 0.60 : 0.35;
  if (kernel == AttentionKernel::flash1) return second * kFirstGenerationAttentionSpeed;
  if (kernel == AttentionKernel::flash3 && compute_capability == 90) return second * kHopperAttentionSpeedup;
  return second;
}

void apply_compute_model(Workload& workload, const GpuSpec& gpu, const ComputeModelParams& params) {
  const double batch = workload.batch_per_gpu;
  bool in_fused_attention = false;
  bool after_batchnorm = false;  // the layer before is a BatchNorm, or a ReLU or add folded into one
  const Layer* before = nullptr;
  // torch.autocast at fp16 or bf16: each layer at the widths autocast runs it in (fp8's casts are
  // Transformer Engine's, add_fp8_casts).
  const bool autocast = params.autocast && half_width(params.precision) && params.precision != Precision::fp8;
  const std::vector<AutocastWidth> widths = autocast ? autocast_widths(workload) : std::vector<AutocastWidth>{};
  for (std::size_t i = 0; i < workload.layers.size(); ++i) {
    Layer& layer = workload.layers[i];
    const AutocastWidth* width = autocast ? &widths[i] : nullptr;
    const bool scores = layer.kind == "attention" && layer.name.ends_with("scores");
    if (params.fused_attention && scores) {
      time_fused_attention(layer, workload, gpu, params);
      in_fused_attention = true;
    } else if (in_fused_attention) {
      // Softmax, dropout and the context product run inside the fused kernel (no casts of their own).
      layer.forward_s = layer.backward_s = 0;
      if (layer.kind == "attention") in_fused_attention = false;
      before = &layer;
      continue;
    } else if (layer.matmul.m > 0) {
      // Fused modules (TE's LayerNormLinear, LayerNormMLP) write a linear's fp8 input themselves,
      // except after attention: the output projection casts its own.
      const bool after_attention = before != nullptr && before->kind == "attention";
      time_product_layer(layer, batch, gpu, params, params.eager_modules || after_attention);
    } else if (!params.eager_modules && after_batchnorm && compute::folds_into_batchnorm(layer.kind)) {
      time_batchnorm_epilogue(layer, batch, width ? width->output : zoo::kActivationBytes * activation_scale(params.precision),
                              kernel_rates(gpu, params, params.precision));
    } else {
      time_streaming_layer(layer, batch, gpu, params, layer.kind == "cross_entropy" ? nullptr : width);
    }
    if (width && width->casts_input)
      add_input_cast(layer, batch, kernel_rates(gpu, params, params.precision));
    after_batchnorm = layer.kind == "batchnorm" || (after_batchnorm && compute::folds_into_batchnorm(layer.kind));
    before = &layer;
  }
  const std::vector<bool> again = recomputed(workload, params.recompute());
  for (std::size_t i = 0; i < again.size(); ++i)
    if (again[i]) workload.layers[i].backward_s += workload.layers[i].forward_s;
  workload.optimizer_s = optimizer_step_s(workload, gpu, params);
}

double recompute_s(const Workload& workload, const Recompute& how) {
  const std::vector<bool> again = recomputed(workload, how);
  double seconds = 0;
  for (std::size_t i = 0; i < again.size(); ++i)
    if (again[i]) seconds += workload.layers[i].forward_s;
  return seconds;
}

double optimizer_step_s(const Workload& workload, const GpuSpec& gpu,
                        const ComputeModelParams& params) {
  const double memory_rate = gpu.memory_bandwidth * params.memory_efficiency;
  return static_cast<double>(workload.parameters()) *
             optimizer_bytes_per_parameter(params.optimizer) / memory_rate +
         params.kernel_overhead_s;
}

double scale_to_throughput(Workload& workload, double samples_per_s) {
  if (samples_per_s <= 0) throw InputError("single-GPU throughput must be positive");
  const double current = workload.compute_s();
  if (current <= 0) throw InputError("workload has no compute time to scale");
  const double target = workload.samples_per_step() / samples_per_s;
  const double factor = target / current;
  for (Layer& layer : workload.layers) {
    layer.forward_s *= factor;
    layer.backward_s *= factor;
  }
  workload.optimizer_s *= factor;
  return factor;
}

}  // namespace scalecast
