// Computation slowed by communication on the same GPU: the rate a compute task runs at, and its
// work left as that rate changes. Both backends time the compute stream with it.
#pragma once

#include "sim/types/cluster.h"
#include "sim/types/strategy.h"

namespace scalecast::scheduling {

// Measured on an H200 (validation/data/h200-gpu-check/compute-contention*.json): BERT-Base's
// GPU-bound training step next to thread blocks that each hold an SM, as NCCL's channels do,
// slowed by this much per share of the SMs held, fitted through the origin over 4, 16 and 32
// blocks of 132 SMs, copy rates from none to 576 GB/s (which did not matter) and three block
// footprints (1.2 to 1.74 each: 512 or 640 threads, 0, 48 or 120 KiB of shared memory).
inline constexpr double kSlowdownPerHeldSmShare = 1.6;

// The compute slowdown of a run whose scenario gives none: kSlowdownPerHeldSmShare x the SMs
// its communication kernels hold / the GPU's SMs. NCCL holds one SM per channel, as many as its
// ring and tree run on for this cluster (all-reduce through NCCL, DataParallel's reduce and
// broadcast, and BytePS's reduce and broadcast among a node's GPUs); Gloo and parameter-server
// transfers with one GPU a node are copies (copy engines, no SM). A GPU without an SM count in
// the catalog keeps kComputeSlowdownUnderComm.
// The channels are NCCL's under the strategy's NCCL settings.
double slowdown_from_held_sms(const Cluster& sized, const Strategy& strategy);

// The rate (1 = alone) at which a GPU computes: 1 / (1 + compute_slowdown) while any of its
// collectives or transfers runs (SchedulingPolicy::communicating).
double compute_rate(const Cluster& cluster, bool communicating);

// One compute task's work, in seconds at full rate, counted down at the rate of each interval.
class ComputeWork {
 public:
  void start(double work_s, double now_s);
  // The rate from now_s on; returns whether the end moved (the rate changed).
  bool retime(double now_s, double rate);
  double end_s() const { return since_s_ + left_s_ / rate_; }

 private:
  double left_s_ = 0, since_s_ = 0, rate_ = 1;
};

}  // namespace scalecast::scheduling
