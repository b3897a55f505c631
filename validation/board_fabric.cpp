// The NVLink fabric of a catalog GPU's DGX or HGX board (fabric kinds of sim/types/cluster.cpp).
#include "validation/board_fabric.h"

namespace scalecast::validation {

std::string board_fabric(const std::string& gpu) {
  if (gpu == "v100-sxm2") return "nvlink2";
  if (gpu.starts_with("a100")) return "nvlink3";
  if (gpu == "h100" || gpu == "h200") return "nvlink4";
  return gpu == "b200" ? "nvlink5" : "";
}

}  // namespace scalecast::validation
