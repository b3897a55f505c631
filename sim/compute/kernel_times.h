// Times of the kernels a training step runs on one GPU, by kind of work: matrix products at the
// GPU's measured matmul rate with tile and wave quantization, streaming kernels at bandwidth.
#pragma once

#include "sim/types/workload.h"

namespace scalecast::compute {

// What one GPU sustains for each kind of work, in SI units.
struct KernelRates {
  double matmul_flops = 0;      // FLOP/s of a large, well-shaped product at the run's precision
  double bandwidth = 0;         // bytes/s a streaming kernel moves
  double vector_flops = 0;      // FLOP/s of elementwise arithmetic (the CUDA cores' fp32 peak)
  int sms = 1;                  // streaming multiprocessors the tiles are spread over
  double launch_s = 0;          // launch and scheduling gap per kernel
};

// `count` products of an (m x k) by a (k x n) matrix, batch included.
struct Product {
  double m = 0, n = 0, k = 0, count = 1;
  double flops() const { return 2 * m * n * k * count; }
};

// How a product's thread blocks occupy the GPU: output tiles of 128 (64 for a side under 128)
// rows and columns, split along k when there are fewer tiles than SMs, spread over the SMs in waves
// (NVIDIA, "Matrix Multiplication Background User's Guide": tile and wave quantization).
struct Tiling {
  double efficiency = 1;  // share of the GPU's matmul rate the blocks keep busy
  double waves = 1;       // rounds of thread blocks over the SMs
};
Tiling tiling(const Product& p, int sms);

// A product kernel's duration beyond its arithmetic: a fixed part (the kernel's start on the GPU,
// its first operand tiles' trip from memory into the pipeline and the last tiles' store) and a
// part per wave (each wave's pipeline fill and result store, which a kernel that does not keep its
// blocks resident across tiles does not overlap with its main loop). Both fitted to OpenXLA's
// H100 (sm_90) GEMM kernel durations, bf16 and TF32 together; its B200 rows are held out
// (validation/data/matmul-shapes, docs/MODEL.md "Compute").
inline constexpr double kProductKernelFixedS = 5e-6;
inline constexpr double kProductWaveLatencyS = 0.5e-6;

// The product's time: the longer of its FLOPs at the matmul rate times its tiling efficiency and
// its operands and result (element_bytes each) at bandwidth, plus the kernel's fixed and per-wave
// latency, plus one launch.
double product_s(const Product& p, double element_bytes, const KernelRates& rates);

// A streaming kernel: its bytes at bandwidth or its FLOPs on the CUDA cores, plus one launch.
double streaming_s(double bytes, double flops, const KernelRates& rates);

// The forward product of a layer for a batch, and the two products of its backward pass (the
// gradient of its input and of its weight, or of attention's other operand).
Product forward_product(const MatmulShape& shape, double batch);
Product input_gradient_product(const MatmulShape& shape, double batch);
Product weight_gradient_product(const MatmulShape& shape, double batch);

}  // namespace scalecast::compute
