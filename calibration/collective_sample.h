// One measured collective (from a sweep, nccl-tests output or a measured timeline): the operation,
// the GPUs it ran on, its size and how long it took, as calibration fits the transport to it.
#pragma once

#include <string>

#include "sim/collectives/collective_ops.h"
#include "sim/types/strategy.h"

namespace scalecast::calibration {

struct CollectiveSample {
  std::string where;  // FILE:LINE or FILE: task N, for reports
  std::string file;   // the measurement file it came from
  collectives::CollectiveOp op = collectives::CollectiveOp::all_reduce;
  int nodes = 1;
  int gpus_per_node = 1;
  int gpus_per_thread = 1;  // nccl-tests' -g: GPUs one thread drives (each adds a launch)
  double bytes = 0;   // nccl-tests' size of the operation
  double time_s = 0;
  std::string algorithm = "auto";  // all-reduce: a registered algorithm, or the library's choice
  CollectiveLibrary library = CollectiveLibrary::nccl;  // what ran it (its sockets over TCP)
};

}  // namespace scalecast::calibration
