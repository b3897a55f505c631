// The GPU catalog: peak compute per precision, memory, and the links collectives use, of the GPUs
// scenarios name, each with the vendor document it comes from.
#pragma once

#include <string>
#include <vector>

namespace scalecast {

// Compute precisions: fp16 and bf16 run on the tensor cores at their rate and keep 2-byte tensors;
// fp8 runs its GEMMs at the fp8 tensor rate (Transformer Engine) and keeps and communicates bf16.
enum class Precision { fp32, tf32, fp16, bf16, fp8 };

struct GpuSpec {
  std::string name;             // catalog key, e.g. "v100-pcie"
  std::string full_name;        // "Tesla V100-PCIE-32GB"
  double fp32_flops = 0;        // peak FLOP/s, dense, no tensor cores
  double tf32_flops = 0;        // peak FLOP/s with TF32 tensor cores (0 if none)
  double fp16_flops = 0;        // peak FLOP/s with FP16 tensor cores, FP32 accumulate
  double bf16_flops = 0;        // peak FLOP/s with BF16 tensor cores, dense (0: no bf16)
  double fp8_flops = 0;         // peak FLOP/s with FP8 tensor cores, dense (0: no fp8)
  double memory_bandwidth = 0;  // bytes/s
  double memory_bytes = 0;      // device memory (the data sheet's GB are GiB)
  std::string source;           // where the figures come from
  // What the collective library sees of it: the CUDA compute capability x 10 (NCCL's tuning
  // tables are per architecture), NVLink links per GPU (0: none) and the PCIe generation of its
  // host link (x16).
  int compute_capability = 0;
  int nvlinks = 0;
  int pcie_gen = 3;
  // Streaming multiprocessors: what a communication kernel's thread blocks (NCCL's channels, one
  // per SM) take from the computation (sim/scheduling/compute_slowdown.h).
  int sms = 0;
  // Measured share of the dense tensor peak that the best-shaped large matrix product reaches in
  // bf16 and in fp8 (Maximum Achievable Matmul FLOPS over the data sheet's peak; 0: not measured,
  // the compute model takes kUnmeasuredMatmulEfficiency).
  double matmul_efficiency = 0;
  double fp8_matmul_efficiency = 0;

  // The measured share for a precision: fp8's own where measured, else the bf16 one (fp32, tf32
  // and fp16 run the same tensor-core pipeline; no table measures them per GPU).
  double measured_matmul_efficiency(Precision p) const;

  // Falls back to fp32 where tf32 or fp16 have no units of their own; 0 for bf16 or fp8 on a GPU
  // without them (supports() says which).
  double peak_flops(Precision p) const;
  bool supports(Precision p) const { return peak_flops(p) > 0; }
};

// The share of peak a large matrix product reaches on a GPU no one has measured: the median of
// the NVIDIA rows of the MAMF table (A100 86.9%, GH200 83.8%, A100 PCIe 81.1%, H100 80.3%, B300
// 78.6%, B200 77.6%, GB200 72.9%; gpu_catalog.cpp names the source).
inline constexpr double kUnmeasuredMatmulEfficiency = 0.803;

const std::vector<GpuSpec>& gpu_catalog();
// Bytes/s of the GPU's x16 host link as NCCL counts it (src/graph/topo.cc: width x lane speed /
// 80, so gen3 12, gen4 24, gen5 48 GB/s).
double pcie_bandwidth(const GpuSpec& gpu);
// Throws an InputError naming the known GPUs when the name is unknown.
const GpuSpec& find_gpu(const std::string& name);
bool has_gpu(const std::string& name);
// The catalog GPU a device name (as CUDA reports it: "Tesla V100-PCIE-32GB", "NVIDIA H100 80GB
// HBM3") names: the longest key whose letters and digits occur in it, case aside; else nullptr.
const GpuSpec* gpu_for_device_name(const std::string& device_name);
Precision parse_precision(const std::string& text);  // "fp32", "tf32", "fp16", "bf16", "fp8"
std::string to_string(Precision p);
// Tensors of 2 bytes (fp16, bf16, and fp8's bf16 storage) rather than 4.
inline bool half_width(Precision p) { return p == Precision::fp16 || p == Precision::bf16 || p == Precision::fp8; }

}  // namespace scalecast
