// A measured nccl-tests run against scalecast's prediction of it, size by size: the run sized as
// measured (its ranks, hosts and GPUs per thread), the error per size and per regime (latency
// below 64 KiB, bandwidth from 1 MiB), and the signed error over training's message sizes
// (1-64 MiB). Used by `collective --compare` and by validate.
#pragma once

#include <string>
#include <vector>

#include "calibration/readers/nccl_tests_output.h"
#include "sim/network/nccl/nccl_collective.h"
#include "sim/scenario/scenario.h"

namespace scalecast::validation {

struct ComparedSize {
  double bytes = 0;
  double measured_us = 0, predicted_us = 0;
  std::string algorithm;  // "nvls/Simple x16"
  std::string bound;      // what sets the predicted time (CollectiveTime::bound)
  double error_pct() const { return 100 * (predicted_us - measured_us) / measured_us; }
};

struct CollectiveComparison {
  Cluster sized;                 // the cluster sized as the run was
  int gpus_per_thread = 1;
  std::vector<ComparedSize> sizes;
  double latency_mape = 0, bandwidth_mape = 0, bandwidth_max = 0;  // percent
  int latency_sizes = 0, bandwidth_sizes = 0;
  // Mean signed error (percent) over the sizes from 1 to 64 MiB: negative when the messages of
  // data-parallel training are predicted faster than measured.
  double bucket_bias = 0;
  int bucket_sizes = 0;
};

inline constexpr double kLatencyRegimeBytes = 65536;    // below: latency regime
inline constexpr double kBandwidthRegimeBytes = 1048576;  // from: bandwidth regime
// Up to: the sizes training sends (DDP's 25 MB buckets, Horovod's 64 MB fusion buffer).
inline constexpr double kBucketSizesMaxBytes = 67108864;

// `gpus`, `nodes` and `gpus_per_thread` (0: from the output's header, else the scenario's one GPU
// count and its own node count, and 1) size the run. Zero-byte rows are left out. Throws
// InputError when the sizes disagree with the output's device lines or name no run.
CollectiveComparison compare_collective(const Scenario& scenario, const calibration::NcclTestsOutput& measured, int gpus,
                                        int nodes, int gpus_per_thread);

}  // namespace scalecast::validation
