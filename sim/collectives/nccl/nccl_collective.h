// How long an nccl-tests operation takes on a cluster: the algorithm and protocol NCCL picks by
// its own estimate, timed with the network's physical latency, the scenario's link rates, the
// pipeline's fill and the launch of each GPU's kernel.
#pragma once

#include <string>

#include "sim/cluster.h"
#include "sim/collectives/collective_ops.h"
#include "sim/collectives/nccl/nccl_settings.h"

namespace scalecast::collectives::nccl {

struct CollectiveTime {
  double seconds = 0;
  std::string algorithm;  // "nvls/Simple", "ring/LL", "p2p/Simple"
  int channels = 0;
  // What sets the time: "latency" or "pipeline fill" (the tree's or NVLink SHARP's) where those
  // fixed costs outweigh the transfer, else what bounds the transfer: "NCCL's channels" (NCCL's
  // own rate for the algorithm and protocol), "NVLink", "PCIe", "host memory", "NVLink SHARP",
  // "NICs", "host staging", "GPUs' PCIe links", "GPU's PCIe link", "host cores" or "EFA bounce
  // buffers"; "" where no model names it.
  std::string bound;
};

// CUDA's kernel launch and device switch when one thread drives several GPUs (nccl-tests -g N):
// the paired runs of one machine, one process per GPU against one thread for all eight (A100:
// 20 -> 40 us, H100: 13 -> 35 us at 8 B), put each further GPU at ~3 us.
inline constexpr double kLaunchPerGpuS = 3e-6;

// One operation of `bytes` (nccl-tests' size) among the sized cluster's GPUs. `gpus_per_thread`
// is nccl-tests' -g. Throws std::invalid_argument for masks that enable nothing here.
CollectiveTime collective_time(const Cluster& sized, const NcclSettings& settings, CollectiveOp op, double bytes,
                               int gpus_per_thread = 1);

}  // namespace scalecast::collectives::nccl
