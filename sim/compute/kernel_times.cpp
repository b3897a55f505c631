// Tile and wave quantization of matrix products, and the roofline of one kernel: the longer of
// its arithmetic and its memory traffic, plus its latency and a launch gap.
#include "sim/compute/kernel_times.h"

#include <algorithm>
#include <cmath>

namespace scalecast::compute {
namespace {

// cuBLAS's tensor-core kernels tile the output in 128 x 128 blocks, with 64-wide variants for
// thin matrices.
double tile_edge(double extent) { return extent < 128 ? 64 : 128; }

// Split-k gives each tile's reduction to several thread blocks when the output has too few tiles
// to fill the SMs; a split keeps at least 256 of k to be worth its extra reduction.
constexpr double kMinSplitDepth = 256;

}  // namespace

Tiling tiling(const Product& p, int sms) {
  if (p.m <= 0 || p.n <= 0 || p.k <= 0 || p.count <= 0) return {};
  const double edge_m = tile_edge(p.m), edge_n = tile_edge(p.n);
  const double tiles_m = std::ceil(p.m / edge_m), tiles_n = std::ceil(p.n / edge_n);
  const double tile_use = (p.m * p.n) / (tiles_m * edge_m * tiles_n * edge_n);
  const double tiles = tiles_m * tiles_n * p.count;
  const double gpu = std::max(1, sms);
  const double splits = tiles >= gpu ? 1 : std::clamp(std::floor(p.k / kMinSplitDepth), 1.0, std::floor(gpu / tiles));
  const double blocks = tiles * splits;
  const double waves = std::ceil(blocks / gpu);
  return {.efficiency = tile_use * blocks / (waves * gpu), .waves = waves};
}

double product_s(const Product& p, double element_bytes, const KernelRates& rates) {
  const Tiling t = tiling(p, rates.sms);
  const double compute_s = p.flops() / (rates.matmul_flops * t.efficiency);
  const double bytes = (p.m * p.k + p.k * p.n + p.m * p.n) * p.count * element_bytes;
  const double latency_s = kProductKernelFixedS + t.waves * kProductWaveLatencyS;
  return std::max(compute_s, bytes / rates.bandwidth) + latency_s + rates.launch_s;
}

double streaming_s(double bytes, double flops, const KernelRates& rates) {
  return std::max(bytes / rates.bandwidth, flops / rates.vector_flops) + rates.launch_s;
}

Product forward_product(const MatmulShape& s, double batch) {
  return s.batch_in_rows ? Product{s.m * batch, s.n, s.k, s.count}
                         : Product{s.m, s.n, s.k, s.count * batch};
}

Product input_gradient_product(const MatmulShape& s, double batch) {
  const Product f = forward_product(s, batch);
  return {f.m, f.k, f.n, f.count};  // dX (m x k) = dY (m x n) W^T (n x k)
}

Product weight_gradient_product(const MatmulShape& s, double batch) {
  const Product f = forward_product(s, batch);
  return {f.k, f.n, f.m, f.count};  // dW (k x n) = X^T (k x m) dY (m x n)
}

}  // namespace scalecast::compute
