// The collective sweep (`scalecast execute --sweep 1KB:256MB`), in the manner of nccl-tests:
// each size timed over a few iterations on every rank, the slowest rank's mean reported with
// algbw and busbw, as a table with a row of units and as CSV for calibration.
#pragma once

#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "executor/bandwidth.h"
#include "executor/launch_env.h"
#include "sim/collectives/allreduce_algorithm.h"
#include "sim/types/strategy.h"

namespace scalecast::executor {

struct SweepOptions {
  double min_bytes = 1e3;
  double max_bytes = 256e6;
  double factor = 2;          // each size is the previous one times this
  SweepOp op = SweepOp::allreduce;
  // of the expansion (all-reduce): a registered algorithm
  const collectives::AllreduceAlgorithm* algorithm = &collectives::allreduce_algorithm("ring");
  bool reference = false;     // the library's own all-reduce instead of the expansion
  int warmup = 1;             // untimed iterations per size
  int iterations = 5;         // timed iterations per size, at least
  // Small sizes repeat until they time as many bytes as `iterations` calls of 1 MiB, up to this
  // many calls (0: `iterations` at every size), as MPI benchmarks time small messages over more
  // iterations (OSU micro-benchmarks: 10x more below 8 KiB): their scheduling noise averages out.
  int max_iterations = 0;
  std::string transport = "gloo";
  double timeout_s = 30;
};

struct SweepRow {
  double bytes = 0;
  double time_s = 0;     // mean over the timed iterations, slowest rank
  double algbw = 0;      // bytes/s
  double busbw = 0;      // bytes/s
  double predicted_s = -1;  // filled by the caller where a model was given; < 0: none
};

struct SweepResult {
  SweepOptions options;
  int ranks = 0;
  std::vector<SweepRow> rows;
};

// min, min*factor, ... up to max (all-reduce sizes rounded to whole 4-byte elements).
// Throws an InputError for an empty range or a factor not above 1.
std::vector<double> sweep_sizes(const SweepOptions& options);
// Timed iterations at a size: `iterations`, more for sizes below 1 MiB up to `max_iterations`.
int sweep_iterations(const SweepOptions& options, double bytes);
// "1KB:256MB" -> (1e3, 256e6); throws an InputError.
std::pair<double, double> parse_size_range(const std::string& text);

// Rank 0 returns the rows, the others nothing; failures stop every rank (see execute_rank).
std::optional<SweepResult> sweep_rank(const SweepOptions& options, const LaunchEnv& env);

void write_sweep_table(std::ostream& out, const SweepResult& result);
void write_sweep_csv(std::ostream& out, const SweepResult& result);

}  // namespace scalecast::executor
