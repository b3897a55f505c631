// Peak figures of the GPUs in the catalog, from NVIDIA's data sheets and whitepapers.
// Figures are per GPU (a K80 board holds two GK210 GPUs: the catalog lists one of them).
// Device memory is the data sheet's size, whose "GB" are GiB (a 32 GB V100 shows 32,510 MiB in
// nvidia-smi after the driver's reserve; an 80 GB A100 81,920 MiB).
#include "sim/catalogs/gpu_catalog.h"

#include <algorithm>
#include <cctype>
#include <stdexcept>

#include "sim/io/input_error.h"
#include "sim/io/units.h"

namespace scalecast {

double GpuSpec::peak_flops(Precision p) const {
  switch (p) {
    case Precision::fp32: return fp32_flops;
    case Precision::tf32: return tf32_flops > 0 ? tf32_flops : fp32_flops;
    case Precision::fp16: return fp16_flops > 0 ? fp16_flops : fp32_flops;
    case Precision::bf16: return bf16_flops;
    case Precision::fp8: return fp8_flops;
  }
  return fp32_flops;
}

double GpuSpec::measured_matmul_efficiency(Precision p) const {
  const double measured = p == Precision::fp8 && fp8_matmul_efficiency > 0 ? fp8_matmul_efficiency
                                                                          : matmul_efficiency;
  return measured > 0 ? measured : kUnmeasuredMatmulEfficiency;
}

const std::vector<GpuSpec>& gpu_catalog() {
  // Compute capability: CUDA C Programming Guide, "Compute Capabilities" (K80 3.7, P100 6.0,
  // V100 7.0, T4 and RTX 2080 Ti 7.5, A100 8.0, L40S 8.9, H100 and H200 9.0, B200 and GB200 10.0).
  // SMs: CUDA cores over cores per SM in NVIDIA's architecture whitepapers (K80 2,496 / 192 = 13
  // per GK210; P100 3,584 / 64 = 56; V100 5,120 / 64 = 80; RTX 2080 Ti 4,352 / 64 = 68; T4 2,560 /
  // 64 = 40; A100 6,912 / 64 = 108; L40S 18,176 / 128 = 142; H100 SXM5 16,896 / 128 = 132); H200
  // 132 as PyTorch read it on one (validation/data/h200-gpu-check); B200 148, 74 of each die's 80
  // (Chips and Cheese, "Nvidia's B200: Keeping the CUDA Juggernaut Rolling", 2025); GB200's
  // Blackwell GPU taken as B200's.
  // Matmul efficiency: Stas Bekman, "Machine Learning Engineering Open Book",
  // compute/accelerator/README.md, "Maximum Achievable Matmul FLOPS comparison table" (mean of
  // 100 iterations of torch.matmul at the best shape found, no sparsity; 2025): bf16 A100 SXM
  // 271.2 of 312 TFLOPS (86.9%), H100 SXM 794.5 of 989 (80.3%, "H200 is the same"), B200 1745 of
  // 2250 (77.6%), GB200 1822 of 2500 (72.9%); fp8 H100 SXM 1402.6 of 1979 (70.9%), H200 1453.4
  // (73.4%), B200 3432.5 of 4500 (76.3%), GB200 3615.6 of 5000 (72.3%). The A100 row (80 GB)
  // stands for the 40 GB part too; no row measures V100, T4, L40S or older GPUs.
  static const std::vector<GpuSpec> catalog = {
      {.name = "k80", .full_name = "Tesla K80 (one GK210 of the board)", .fp32_flops = 4.37e12,
       .memory_bandwidth = 240e9, .memory_bytes = 12 * units::kGiB,
       .source = "NVIDIA Tesla K80 data sheet (2014): 8.73 TFLOPS fp32 boost, 480 GB/s and 24 GB GDDR5 per "
                 "board of two GPUs; PCIe gen3",
       .compute_capability = 37, .pcie_gen = 3, .sms = 13},
      {.name = "p100", .full_name = "Tesla P100-PCIE-16GB", .fp32_flops = 9.3e12, .fp16_flops = 18.7e12,
       .memory_bandwidth = 732e9, .memory_bytes = 16 * units::kGiB,
       .source = "NVIDIA Tesla P100 PCIe data sheet (2016): 9.3 TFLOPS fp32, 18.7 TFLOPS fp16, 732 GB/s, "
                 "16 GB HBM2; PCIe gen3",
       .compute_capability = 60, .pcie_gen = 3, .sms = 56},
      {.name = "v100-pcie", .full_name = "Tesla V100-PCIE-32GB", .fp32_flops = 14e12, .fp16_flops = 112e12,
       .memory_bandwidth = 900e9, .memory_bytes = 32 * units::kGiB,
       .source = "NVIDIA Tesla V100 data sheet (2018): PCIe 14 TFLOPS fp32, 112 TFLOPS tensor, 900 GB/s, "
                 "32 GB HBM2; PCIe gen3",
       .compute_capability = 70, .pcie_gen = 3, .sms = 80},
      {.name = "v100-sxm2", .full_name = "Tesla V100-SXM2-32GB", .fp32_flops = 15.7e12, .fp16_flops = 125e12,
       .memory_bandwidth = 900e9, .memory_bytes = 32 * units::kGiB,
       .source = "NVIDIA Tesla V100 data sheet (2018): SXM2 15.7 TFLOPS fp32, 125 TFLOPS tensor, 900 GB/s, "
                 "32 GB HBM2, 6 NVLink2 links (300 GB/s); PCIe gen3",
       .compute_capability = 70, .nvlinks = 6, .pcie_gen = 3, .sms = 80},
      {.name = "rtx2080ti", .full_name = "GeForce RTX 2080 Ti", .fp32_flops = 13.45e12, .fp16_flops = 53.8e12,
       .memory_bandwidth = 616e9, .memory_bytes = 11 * units::kGiB,
       .source = "NVIDIA Turing architecture whitepaper (2018), appendix A: 13.4 TFLOPS fp32, 53.8 TFLOPS "
                 "fp16 tensor with fp32 accumulate (GeForce rate), 616 GB/s, 11 GB GDDR6; PCIe gen3",
       .compute_capability = 75, .pcie_gen = 3, .sms = 68},
      {.name = "t4", .full_name = "Tesla T4", .fp32_flops = 8.1e12, .fp16_flops = 65e12, .memory_bandwidth = 320e9,
       .memory_bytes = 16 * units::kGiB,
       .source = "NVIDIA T4 data sheet (2019): 8.1 TFLOPS fp32, 65 TFLOPS mixed precision, 320 GB/s, "
                 "16 GB GDDR6; PCIe gen3",
       .compute_capability = 75, .pcie_gen = 3, .sms = 40},
      {.name = "a100-sxm4-40gb", .full_name = "A100-SXM4-40GB", .fp32_flops = 19.5e12, .tf32_flops = 156e12,
       .fp16_flops = 312e12, .bf16_flops = 312e12, .memory_bandwidth = 1555e9, .memory_bytes = 40 * units::kGiB,
       .source = "NVIDIA A100 data sheet (2021): 19.5 TFLOPS fp32, 156 TFLOPS tf32, 312 TFLOPS fp16 and bf16 dense, "
                 "1,555 GB/s, 40 GB HBM2 (40GB SXM), 12 NVLink3 links (600 GB/s); PCIe gen4",
       .compute_capability = 80, .nvlinks = 12, .pcie_gen = 4, .sms = 108, .matmul_efficiency = 0.869},
      {.name = "a100", .full_name = "A100-SXM4-80GB", .fp32_flops = 19.5e12, .tf32_flops = 156e12,
       .fp16_flops = 312e12, .bf16_flops = 312e12, .memory_bandwidth = 2039e9, .memory_bytes = 80 * units::kGiB,
       .source = "NVIDIA A100 data sheet (2021): 19.5 TFLOPS fp32, 156 TFLOPS tf32, 312 TFLOPS fp16 and bf16 dense, "
                 "2,039 GB/s, 80 GB HBM2e (80GB SXM), 12 NVLink3 links (600 GB/s); PCIe gen4",
       .compute_capability = 80, .nvlinks = 12, .pcie_gen = 4, .sms = 108, .matmul_efficiency = 0.869},
      {.name = "l40s", .full_name = "NVIDIA L40S", .fp32_flops = 91.6e12, .tf32_flops = 183e12,
       .fp16_flops = 362e12, .bf16_flops = 362e12, .fp8_flops = 733e12, .memory_bandwidth = 864e9, .memory_bytes = 48 * units::kGiB,
       .source = "NVIDIA L40S data sheet (2023): 91.6 TFLOPS fp32, 183 TFLOPS tf32 and 362 TFLOPS fp16 and bf16 "
                 "and 733 TFLOPS fp8 tensor dense (twice with sparsity), 864 GB/s, 48 GB GDDR6, no NVLink; PCIe gen4",
       .compute_capability = 89, .pcie_gen = 4, .sms = 142},
      {.name = "h100", .full_name = "H100-SXM5-80GB", .fp32_flops = 67e12, .tf32_flops = 494.7e12,
       .fp16_flops = 989.4e12, .bf16_flops = 989.4e12, .fp8_flops = 1978.9e12, .memory_bandwidth = 3.35e12, .memory_bytes = 80 * units::kGiB,
       .source = "NVIDIA H100 data sheet (2023): SXM5 67 TFLOPS fp32, 494.7 TFLOPS tf32, 989.4 TFLOPS "
                 "fp16 and bf16 and 1,979 TFLOPS fp8 dense, 3.35 TB/s, 80 GB HBM3, 18 NVLink4 links (900 GB/s); PCIe gen5",
       .compute_capability = 90, .nvlinks = 18, .pcie_gen = 5, .sms = 132, .matmul_efficiency = 0.803, .fp8_matmul_efficiency = 0.709},
      {.name = "h200", .full_name = "H200-SXM-141GB", .fp32_flops = 67e12, .tf32_flops = 494.7e12,
       .fp16_flops = 989.4e12, .bf16_flops = 989.4e12, .fp8_flops = 1978.9e12, .memory_bandwidth = 4.8e12, .memory_bytes = 141 * units::kGiB,
       .source = "NVIDIA H200 data sheet (2024): SXM 67 TFLOPS fp32, 989 TFLOPS tf32 and 1,979 TFLOPS fp16 and bf16 "
                 "and 3,958 TFLOPS fp8 with sparsity (half dense), 4.8 TB/s, 141 GB HBM3e, NVLink4 900 GB/s (18 links); PCIe gen5",
       .compute_capability = 90, .nvlinks = 18, .pcie_gen = 5, .sms = 132, .matmul_efficiency = 0.803, .fp8_matmul_efficiency = 0.734},
      {.name = "b200", .full_name = "NVIDIA B200", .fp32_flops = 75e12, .tf32_flops = 1.1e15, .fp16_flops = 2.25e15, .bf16_flops = 2.25e15, .fp8_flops = 4.5e15,
       .memory_bandwidth = 7.7e12, .memory_bytes = 180 * units::kGiB,
       .source = "NVIDIA HGX B200 data sheet (2024), per GPU of 8: 600 TFLOPS fp32, 18 PFLOPS tf32 and 36 "
                 "PFLOPS fp16 and bf16 and 72 PFLOPS fp8 with sparsity (half dense), 1.44 TB HBM3e and 62 TB/s; NVLink5 1.8 TB/s (18 "
                 "links); PCIe gen5",
       .compute_capability = 100, .nvlinks = 18, .pcie_gen = 5, .sms = 148, .matmul_efficiency = 0.776, .fp8_matmul_efficiency = 0.763},
      {.name = "gb200", .full_name = "NVIDIA GB200 (one Blackwell GPU)", .fp32_flops = 80e12, .tf32_flops = 1.25e15,
       .fp16_flops = 2.5e15, .bf16_flops = 2.5e15, .fp8_flops = 5e15, .memory_bandwidth = 8e12, .memory_bytes = 186 * units::kGiB,
       .source = "NVIDIA GB200 NVL72 data sheet (2024), per GPU of 72: 5,760 TFLOPS fp32, 180 PFLOPS tf32, "
                 "360 PFLOPS fp16 and bf16 and 720 PFLOPS fp8 with sparsity (half dense), 13.4 TB HBM3e and 576 TB/s; NVLink5 1.8 TB/s "
                 "(18 links) to NVLink Switch trays; C2C to its Grace CPU",
       .compute_capability = 100, .nvlinks = 18, .pcie_gen = 5, .sms = 148, .matmul_efficiency = 0.729, .fp8_matmul_efficiency = 0.723},
  };
  return catalog;
}

double pcie_bandwidth(const GpuSpec& gpu) {
  const int gen = std::clamp(gpu.pcie_gen, 3, 6);
  return 12e9 * (1 << (gen - 3));
}

bool has_gpu(const std::string& name) {
  for (const auto& g : gpu_catalog())
    if (g.name == name) return true;
  return false;
}

const GpuSpec& find_gpu(const std::string& name) {
  std::string known;
  for (const auto& g : gpu_catalog()) {
    if (g.name == name) return g;
    known += (known.empty() ? "" : ", ") + g.name;
  }
  throw InputError("unknown GPU '" + name + "' (known: " + known + ")");
}

namespace {

std::string letters_and_digits(const std::string& text) {
  std::string out;
  for (const char c : text)
    if (std::isalnum(static_cast<unsigned char>(c)))
      out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

}  // namespace

const GpuSpec* gpu_for_device_name(const std::string& device_name) {
  const std::string device = letters_and_digits(device_name);
  const GpuSpec* best = nullptr;
  size_t best_length = 0;
  for (const auto& g : gpu_catalog()) {
    const std::string key = letters_and_digits(g.name);
    if (key.size() > best_length && device.find(key) != std::string::npos) {
      best = &g;
      best_length = key.size();
    }
  }
  return best;
}

Precision parse_precision(const std::string& text) {
  if (text == "fp32") return Precision::fp32;
  if (text == "tf32") return Precision::tf32;
  if (text == "fp16") return Precision::fp16;
  if (text == "bf16") return Precision::bf16;
  if (text == "fp8") return Precision::fp8;
  throw InputError("unknown precision '" + text + "' (known: fp32, tf32, fp16, bf16, fp8)");
}

std::string to_string(Precision p) {
  switch (p) {
    case Precision::fp32: return "fp32";
    case Precision::tf32: return "tf32";
    case Precision::fp16: return "fp16";
    case Precision::bf16: return "bf16";
    case Precision::fp8: return "fp8";
  }
  return "fp32";
}

}  // namespace scalecast
