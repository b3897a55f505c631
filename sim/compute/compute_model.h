// The compute model: per-layer forward and backward times on a GPU by kind of work (matrix
// products, fused attention, streaming kernels), optionally scaled to a measured throughput.
#pragma once

#include <string>

#include "sim/catalogs/gpu_catalog.h"
#include "sim/compute/kernel_times.h"
#include "sim/types/checkpointing.h"
#include "sim/types/workload.h"

namespace scalecast {

// The share of HBM bandwidth a streaming kernel reaches: STREAM-style device copies measure about
// 90% of the data sheet's figure on A100 and H100 parts (docs/MODEL.md, "Compute").
inline constexpr double kStreamingEfficiency = 0.90;

// The generation of a fused attention kernel: FlashAttention-2 (Dao 2023; PyTorch SDPA's flash
// backend from 2.2), or the first (FlashAttention, Dao et al. 2022; its 2022 Triton port, which
// llm-foundry's MPT runs as attn_impl: triton; SDPA's flash backend in PyTorch 2.0 and 2.1).
// FlashAttention-3 (Shah et al. 2024) and cuDNN's fused attention (Transformer Engine's
// FusedAttention backend) use Hopper's asynchronous tensor cores: `flash3`.
enum class AttentionKernel { flash2, flash1, flash3 };

// The first generation's speed as a share of FlashAttention-2's on the same GPU: "around 2x
// speedup compared to FlashAttention" (Dao 2023, abstract: FlashAttention 25-40% of an A100's
// peak, FlashAttention-2 50-73%; PyTorch 2.2's release notes: SDPA "around 2x" faster with
// FlashAttention-2). The Triton port's forward and backward together are "slightly slower than"
// FlashAttention's (flash_attn/flash_attn_triton.py, Dao-AILab/flash-attention), taken as equal.
inline constexpr double kFirstGenerationAttentionSpeed = 0.5;

// FlashAttention-3's speed on Hopper as a multiple of FlashAttention-2's: forward "1.5-2.0x"
// (FP16, up to 740 TFLOP/s, 75% of an H100's peak), backward 1.5-1.75x (Shah et al. 2024): the
// low end of both. cuDNN's fused attention, which that paper measures beside it, is taken as
// equal. Hopper only: elsewhere FlashAttention-2's rate.
inline constexpr double kHopperAttentionSpeedup = 1.5;

struct ComputeModelParams {
  double compute_efficiency = 0;     // share of peak FLOP/s products reach (0: the GPU's measured)
  double memory_efficiency = kStreamingEfficiency;  // share of memory bandwidth streaming reaches
  double kernel_overhead_s = 6e-6;   // launch and scheduling gap per layer and pass
  Precision precision = Precision::fp32;
  std::string optimizer = "sgd";     // sgd (momentum) or adam: bytes touched per parameter
  bool fused_attention = false;      // one flash-attention kernel per layer instead of eager ops
  AttentionKernel attention_kernel = AttentionKernel::flash2;  // which one, when fused
  // torch.autocast over fp32 weights (model.mixed_precision: autocast) at a half-width precision:
  // each product casts its weight to the product's width in its forward and its weight's gradient
  // back to fp32 in its backward.
  bool autocast = false;
  bool channels_last = false;        // convolutions' tensors in NHWC (no layout transposes)
  // RMSNorm and rotary embeddings as PyTorch modules written op by op, and BatchNorm as PyTorch's
  // eager kernels (true), or as one fused kernel each with a BatchNorm's ReLU and residual add
  // folded into it (Transformer Engine, Apex, Liger, torch.compile, XLA);
  // compute/streaming_traffic.h.
  bool eager_modules = true;
  // The cross-entropy loss as one fused kernel each way (model.loss: fused): a pass over the
  // logits at their own width, instead of over fp32 copies of them.
  bool fused_loss = false;
  // What runs its forward again in its backward: the blocks (full; every N-th with
  // checkpoint_every N), their attention cores (selective), or what torchtitan's per-op policy
  // does not keep (selective_op).
  Checkpointing activation_checkpointing = Checkpointing::none;
  int checkpoint_every = 1;

  Recompute recompute() const { return {activation_checkpointing, checkpoint_every, fused_attention}; }
};

// What the GPU sustains for each kind of work at precision p under the params: products at the
// GPU's measured matmul efficiency (or params.compute_efficiency), streaming at
// params.memory_efficiency of its bandwidth, params.kernel_overhead_s per kernel.
compute::KernelRates kernel_rates(const GpuSpec& gpu, const ComputeModelParams& params, Precision p);

// Bytes of one element of a product's operands at precision p (fp8 1, half widths 2, else 4).
double element_bytes(Precision p);

// Fills forward_s, backward_s of every layer and optimizer_s for workload.batch_per_gpu.
void apply_compute_model(Workload& workload, const GpuSpec& gpu, const ComputeModelParams& params);

// The forward seconds per micro-batch that a checkpointing mode runs again in the backward pass,
// from the layers' forward times (full: every layer but the embeddings, the output head and the
// loss, or every N-th block's; selective: each attention core, from its scores product to its
// context product; selective_op: in each block, every layer but every other product and a fused
// attention kernel).
double recompute_s(const Workload& workload, const Recompute& how);

// The share of peak a fused (flash) attention kernel of this generation reaches, forward and
// backward together, on a GPU of this compute capability (docs/MODEL.md names the measurements).
double fused_attention_efficiency(int compute_capability, AttentionKernel kernel);

// The optimizer step's time on a GPU: the bytes it touches per parameter (params.optimizer) at
// the achievable memory bandwidth, plus one launch gap.
double optimizer_step_s(const Workload& workload, const GpuSpec& gpu,
                        const ComputeModelParams& params);

// Scales every compute time by one factor so that one GPU's samples per optimizer step over its
// compute (every micro-batch's forward and backward, and the optimizer) equals the measured
// single-GPU throughput (samples/s). Returns the factor applied.
double scale_to_throughput(Workload& workload, double samples_per_s);

}  // namespace scalecast
