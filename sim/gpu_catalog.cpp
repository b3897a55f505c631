// Peak figures of the GPUs in the catalog, from NVIDIA's data sheets and whitepapers.
// Figures are per GPU (a K80 board holds two GK210 GPUs: the catalog lists one of them).
// Device memory is the data sheet's size, whose "GB" are GiB (a 32 GB V100 shows 32,510 MiB in
// nvidia-smi after the driver's reserve; an 80 GB A100 81,920 MiB).
#include "sim/gpu_catalog.h"

#include <cctype>
#include <stdexcept>

#include "sim/units.h"

namespace scalecast {

double GpuSpec::peak_flops(Precision p) const {
  switch (p) {
    case Precision::fp32: return fp32_flops;
    case Precision::tf32: return tf32_flops > 0 ? tf32_flops : fp32_flops;
    case Precision::fp16: return fp16_flops > 0 ? fp16_flops : fp32_flops;
  }
  return fp32_flops;
}

const std::vector<GpuSpec>& gpu_catalog() {
  static const std::vector<GpuSpec> catalog = {
      {"k80", "Tesla K80 (one GK210 of the board)", 4.37e12, 0, 0, 240e9, 12 * units::kGiB,
       "NVIDIA Tesla K80 data sheet (2014): 8.73 TFLOPS fp32 boost, 480 GB/s and 24 GB GDDR5 per "
       "board of two GPUs"},
      {"p100", "Tesla P100-PCIE-16GB", 9.3e12, 0, 18.7e12, 732e9, 16 * units::kGiB,
       "NVIDIA Tesla P100 PCIe data sheet (2016): 9.3 TFLOPS fp32, 18.7 TFLOPS fp16, 732 GB/s, "
       "16 GB HBM2"},
      {"v100-pcie", "Tesla V100-PCIE-32GB", 14e12, 0, 112e12, 900e9, 32 * units::kGiB,
       "NVIDIA Tesla V100 data sheet (2018): PCIe 14 TFLOPS fp32, 112 TFLOPS tensor, 900 GB/s, "
       "32 GB HBM2"},
      {"v100-sxm2", "Tesla V100-SXM2-32GB", 15.7e12, 0, 125e12, 900e9, 32 * units::kGiB,
       "NVIDIA Tesla V100 data sheet (2018): SXM2 15.7 TFLOPS fp32, 125 TFLOPS tensor, 900 GB/s, "
       "32 GB HBM2"},
      {"rtx2080ti", "GeForce RTX 2080 Ti", 13.45e12, 0, 53.8e12, 616e9, 11 * units::kGiB,
       "NVIDIA Turing architecture whitepaper (2018), appendix A: 13.4 TFLOPS fp32, 53.8 TFLOPS "
       "fp16 tensor with fp32 accumulate (GeForce rate), 616 GB/s, 11 GB GDDR6"},
      {"t4", "Tesla T4", 8.1e12, 0, 65e12, 320e9, 16 * units::kGiB,
       "NVIDIA T4 data sheet (2019): 8.1 TFLOPS fp32, 65 TFLOPS mixed precision, 320 GB/s, "
       "16 GB GDDR6"},
      {"a100", "A100-SXM4-80GB", 19.5e12, 156e12, 312e12, 2039e9, 80 * units::kGiB,
       "NVIDIA A100 data sheet (2021): 19.5 TFLOPS fp32, 156 TFLOPS tf32, 312 TFLOPS fp16 dense, "
       "2,039 GB/s, 80 GB HBM2e (80GB SXM)"},
      {"h100", "H100-SXM5-80GB", 67e12, 494.7e12, 989.4e12, 3.35e12, 80 * units::kGiB,
       "NVIDIA H100 data sheet (2023): SXM5 67 TFLOPS fp32, 494.7 TFLOPS tf32 and 989.4 TFLOPS "
       "fp16 dense, 3.35 TB/s, 80 GB HBM3"},
  };
  return catalog;
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
  throw std::invalid_argument("unknown GPU '" + name + "' (known: " + known + ")");
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
  throw std::invalid_argument("unknown precision '" + text + "' (known: fp32, tf32, fp16)");
}

}  // namespace scalecast
