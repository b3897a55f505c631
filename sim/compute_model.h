// The roofline compute model: per-layer forward and backward times on a GPU from FLOPs and
// memory traffic, optionally scaled so one GPU's iteration matches a measured throughput.
#pragma once

#include <string>

#include "sim/gpu_catalog.h"
#include "sim/workload.h"

namespace scalecast {

struct ComputeModelParams {
  double compute_efficiency = 0.55;  // share of peak FLOP/s that conv/linear kernels reach
  double memory_efficiency = 0.70;   // share of memory bandwidth elementwise kernels reach
  double kernel_overhead_s = 6e-6;   // launch and scheduling gap per layer and pass
  Precision precision = Precision::fp32;
  std::string optimizer = "sgd";     // sgd (momentum) or adam: bytes touched per parameter
};

// Fills forward_s, backward_s of every layer and optimizer_s for workload.batch_per_gpu.
void apply_roofline(Workload& workload, const GpuSpec& gpu, const ComputeModelParams& params);

// The optimizer step's time on a GPU: the bytes it touches per parameter (params.optimizer) at
// the achievable memory bandwidth, plus one launch gap.
double optimizer_step_s(const Workload& workload, const GpuSpec& gpu,
                        const ComputeModelParams& params);

// Scales every compute time by one factor so that batch / (forward + backward + optimizer)
// equals the measured single-GPU throughput (samples/s). Returns the factor applied.
double scale_to_throughput(Workload& workload, double samples_per_s);

}  // namespace scalecast
