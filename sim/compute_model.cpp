// Roofline times per layer: max(FLOPs / achievable FLOP/s, bytes / achievable bandwidth) plus a
// launch gap; backward costs twice the forward FLOPs for matrix layers (data and weight grads).
#include "sim/compute_model.h"

#include <algorithm>
#include <stdexcept>

namespace scalecast {

namespace {

// True when a layer's forward pass is dominated by matrix products (conv, linear, attention).
bool is_matmul_layer(const Layer& layer) {
  return layer.kind == "conv" || layer.kind == "linear" || layer.kind == "attention" ||
         layer.kind == "embedding";
}

// Bytes read and written per parameter by one optimizer step in fp32: SGD with momentum reads
// weight, gradient and momentum and writes weight and momentum (5 x 4 B); Adam also reads and
// writes the second moment (7 x 4 B).
double optimizer_bytes_per_parameter(const std::string& optimizer) {
  if (optimizer == "sgd") return 20;
  if (optimizer == "adam") return 28;
  throw std::invalid_argument("unknown optimizer '" + optimizer + "' (known: sgd, adam)");
}

}  // namespace

void apply_roofline(Workload& workload, const GpuSpec& gpu, const ComputeModelParams& params) {
  const double flops_rate = gpu.peak_flops(params.precision) * params.compute_efficiency;
  const double memory_rate = gpu.memory_bandwidth * params.memory_efficiency;
  const double batch = workload.batch_per_gpu;
  for (Layer& layer : workload.layers) {
    const double weight_bytes = static_cast<double>(layer.grad_bytes());
    const double flops = layer.forward_flops * batch;
    const double activation_bytes = layer.forward_memory_bytes * batch;
    const bool matmul = is_matmul_layer(layer);
    // Embedding lookups gather rows: memory-bound, and their backward is a scatter-add.
    const double fwd_flops = layer.kind == "embedding" ? 0 : flops;
    const double bwd_flops = layer.kind == "embedding" ? 0 : (matmul ? 2 * flops : flops);
    const double fwd_bytes = activation_bytes + weight_bytes;
    const double bwd_bytes = 2 * activation_bytes + 2 * weight_bytes;
    layer.forward_s =
        std::max(fwd_flops / flops_rate, fwd_bytes / memory_rate) + params.kernel_overhead_s;
    layer.backward_s =
        std::max(bwd_flops / flops_rate, bwd_bytes / memory_rate) + params.kernel_overhead_s;
  }
  workload.optimizer_s = optimizer_step_s(workload, gpu, params);
}

double optimizer_step_s(const Workload& workload, const GpuSpec& gpu,
                        const ComputeModelParams& params) {
  const double memory_rate = gpu.memory_bandwidth * params.memory_efficiency;
  return static_cast<double>(workload.parameters()) *
             optimizer_bytes_per_parameter(params.optimizer) / memory_rate +
         params.kernel_overhead_s;
}

double scale_to_throughput(Workload& workload, double samples_per_s) {
  if (samples_per_s <= 0) throw std::invalid_argument("single-GPU throughput must be positive");
  const double current = workload.compute_s();
  if (current <= 0) throw std::invalid_argument("workload has no compute time to scale");
  const double target = workload.batch_per_gpu / samples_per_s;
  const double factor = target / current;
  for (Layer& layer : workload.layers) {
    layer.forward_s *= factor;
    layer.backward_s *= factor;
  }
  workload.optimizer_s *= factor;
  return factor;
}

}  // namespace scalecast
