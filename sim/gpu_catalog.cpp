// Peak figures of the GPUs in the catalog, from NVIDIA's data sheets and whitepapers.
// Figures are per GPU (a K80 board holds two GK210 GPUs: the catalog lists one of them).
#include "sim/gpu_catalog.h"

#include <stdexcept>

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
      {"k80", "Tesla K80 (one GK210 of the board)", 4.37e12, 0, 0, 240e9, 12e9,
       "NVIDIA Tesla K80 data sheet (2014): 8.73 TFLOPS fp32 boost and 480 GB/s per board of two GPUs"},
      {"p100", "Tesla P100-PCIE-16GB", 9.3e12, 0, 18.7e12, 732e9, 16e9,
       "NVIDIA Tesla P100 PCIe data sheet (2016): 9.3 TFLOPS fp32, 18.7 TFLOPS fp16, 732 GB/s"},
      {"v100-pcie", "Tesla V100-PCIE-32GB", 14e12, 0, 112e12, 900e9, 32e9,
       "NVIDIA Tesla V100 data sheet (2018): PCIe 14 TFLOPS fp32, 112 TFLOPS tensor, 900 GB/s"},
      {"v100-sxm2", "Tesla V100-SXM2-32GB", 15.7e12, 0, 125e12, 900e9, 32e9,
       "NVIDIA Tesla V100 data sheet (2018): SXM2 15.7 TFLOPS fp32, 125 TFLOPS tensor, 900 GB/s"},
      {"rtx2080ti", "GeForce RTX 2080 Ti", 13.45e12, 0, 53.8e12, 616e9, 11e9,
       "NVIDIA Turing architecture whitepaper (2018), appendix A: 13.4 TFLOPS fp32, 53.8 TFLOPS "
       "fp16 tensor with fp32 accumulate (GeForce rate), 616 GB/s"},
      {"t4", "Tesla T4", 8.1e12, 0, 65e12, 320e9, 16e9,
       "NVIDIA T4 data sheet (2019): 8.1 TFLOPS fp32, 65 TFLOPS mixed precision, 320 GB/s"},
      {"a100", "A100-SXM4-80GB", 19.5e12, 156e12, 312e12, 2039e9, 80e9,
       "NVIDIA A100 data sheet (2021): 19.5 TFLOPS fp32, 156 TFLOPS tf32, 312 TFLOPS fp16 dense, "
       "2,039 GB/s (80GB SXM)"},
      {"h100", "H100-SXM5-80GB", 67e12, 494.7e12, 989.4e12, 3.35e12, 80e9,
       "NVIDIA H100 data sheet (2023): SXM5 67 TFLOPS fp32, 494.7 TFLOPS tf32 and 989.4 TFLOPS "
       "fp16 dense, 3.35 TB/s"},
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

Precision parse_precision(const std::string& text) {
  if (text == "fp32") return Precision::fp32;
  if (text == "tf32") return Precision::tf32;
  if (text == "fp16") return Precision::fp16;
  throw std::invalid_argument("unknown precision '" + text + "' (known: fp32, tf32, fp16)");
}

}  // namespace scalecast
