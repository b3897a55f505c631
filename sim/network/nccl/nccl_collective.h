// NCCL's collectives on one sized cluster, the one model every driver asks (collective,
// training schedules, calibration, recommend, the executor's sweep): the algorithm and protocol
// NCCL picks by its own estimate, timed with the network's physical latency, the run's link
// rates, the pipeline's fill and the launch of each GPU's kernel.
#pragma once

#include <array>
#include <mutex>
#include <optional>
#include <string>

#include "sim/types/cluster.h"
#include "sim/network/nccl/nccl_system.h"
#include "sim/network/nccl/nccl_tuning.h"
#include "sim/types/collective_op.h"
#include "sim/types/nccl_settings.h"
#include "sim/types/quantities.h"

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

// The run's network rates the model takes from its link capacities (LinkCapacities: what
// calibration fits), in SI units.
struct NetworkRates {
  int nics = 1;             // per node
  Rate nic_payload;         // of all of a node's NICs
  Rate staging_bandwidth;   // of a transfer through host memory (0: GPUDirect)
  Seconds network_latency;  // one-way, node to node
};

// What NCCL sees of a sized run and the graphs its search finds there, worked out once; the
// network's rates are the run's, converted to NCCL's GB/s and microseconds here and nowhere else.
class NcclModel {
 public:
  // Throws an InputError for a GPU outside the catalog or masks NCCL cannot parse.
  NcclModel(const Cluster& sized, const NetworkRates& network, const NcclSettings& settings);

  // One operation of `bytes` (nccl-tests' size) among the run's GPUs, alone on them: the whole
  // call as nccl-tests times it. `gpus_per_thread` is nccl-tests' -g. Throws
  // an InputError where the masks enable no algorithm for the operation.
  CollectiveTime time(CollectiveOp op, double bytes, int gpus_per_thread = 1) const;
  // The same without its text: what a training schedule asks for every message.
  double seconds(CollectiveOp op, double bytes, int gpus_per_thread = 1) const {
    return timing(op, bytes, gpus_per_thread).seconds;
  }
  // time()'s answer with the algorithm, protocol and bound as NCCL's names ("p2p" and "none"
  // for point-to-point and a single rank).
  struct Timing {
    double seconds = 0;
    const char* algo = "none";
    const char* proto = "";
    int channels = 0;
    const char* bound = "none";
  };
  Timing timing(CollectiveOp op, double bytes, int gpus_per_thread = 1) const;
  // NCCL's choice for `bytes` (nccl-tests' size) of a reduction-type operation: by its own
  // estimate from 2.5, by 2.4's thresholds before; nullopt where the masks leave none.
  std::optional<Estimate> choice(Func f, double bytes) const;

  const NcclSystem& system() const { return system_; }
  const Graphs& graphs() const { return graphs_; }

 private:
  std::optional<Estimate> legacy_choice(Func f, double bytes) const;

  NcclSettings settings_;
  NcclSystem system_;
  Graphs graphs_;
  // NCCL's tuning table (its estimate's view of latency, for the choice) and the same entries
  // with the physical latency (for the time), per function, algorithm x protocol; entries NCCL
  // would not run, or the masks leave out of the choice, are empty.
  // Filled per function on its first use (most runs ask for one or two of the five).
  using Row = std::array<std::optional<Estimate>, kAlgos * kProtos>;
  const Row& tuning(Func f) const;
  const Row& physical(Func f) const;
  void fill(Func f) const;
  Enabled enabled_;
  mutable std::array<Row, kFuncs> tuning_, physical_;
  mutable std::array<std::once_flag, kFuncs> filled_;
};

}  // namespace scalecast::collectives::nccl
