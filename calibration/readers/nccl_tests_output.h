// Reads nccl-tests output as printed (all_reduce_perf, all_gather_perf, reduce_scatter_perf,
// sendrecv_perf, broadcast_perf, alltoall_perf), with or without its header, with the prefixes
// mpirun and srun put before lines: the ranks, the nodes and each size's out-of-place time.
#pragma once

#include <istream>
#include <string>
#include <vector>

#include "calibration/collective_sample.h"
#include "sim/types/cluster.h"

namespace scalecast::calibration {

struct NcclTestsRow {
  int line = 0;
  double bytes = 0;      // "size" (B)
  double time_us = 0;    // out-of-place time
  double algbw = 0;      // GB/s as printed
  double busbw = 0;
};

struct NcclTestsOutput {
  std::string source;
  collectives::CollectiveOp op = collectives::CollectiveOp::all_reduce;
  int ranks = 0;   // device lines ("#  Rank N ...") printed
  int nodes = 0;   // distinct hosts among them
  int gpus_per_thread = 1;  // "nGpus N" of its header: GPUs one thread drives (nccl-tests -g)
  std::vector<NcclTestsRow> rows;
};

// Whether a text looks like nccl-tests output (its table header or its footer).
bool looks_like_nccl_tests(const std::string& text);
// One entry per test run in the text (a log may hold several, one after another: each begins
// with its "Collective test starting" or "nThread" line). Throws an InputError naming the file and
// line of anything it cannot read. A run's operation comes from its "Collective test starting"
// line, or else from `source`'s file name (all_gather_perf...).
std::vector<NcclTestsOutput> read_nccl_tests(std::istream& in, const std::string& source);
// Samples on nodes x (ranks / nodes) GPUs as the device lines say, or where the output has none,
// on `gpus` (calibrate --gpus) placed as `sized_for` places them on `cluster`. Throws an InputError
// without either, or where they disagree.
std::vector<CollectiveSample> nccl_tests_samples(const NcclTestsOutput& run, const Cluster* cluster = nullptr,
                                                 int gpus = 0);

}  // namespace scalecast::calibration
