// The NVLink fabric of the 8- or 16-GPU board a catalog GPU is sold on, for validation rows that
// state a node of such GPUs (DGX or HGX) but not its fabric.
#pragma once

#include <string>

namespace scalecast::validation {

// "nvlink2" (V100 SXM2: DGX-1's hybrid cube mesh, DGX-2's NVSwitch), "nvlink3" (A100), "nvlink4"
// (H100, H200), "nvlink5" (B200); "" for a GPU sold on no such board (PCIe cards, GB200's
// rack-wide NVLink domain).
std::string board_fabric(const std::string& catalog_gpu);

}  // namespace scalecast::validation
