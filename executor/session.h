// `scalecast execute` for one rank: checks the schedule and the world against every other rank
// before any transfer, runs this rank's share, and gathers every rank's events at rank 0.
#pragma once

#include <optional>
#include <string>

#include "executor/launch_env.h"
#include "sim/types/schedule.h"
#include "sim/types/timeline.h"

namespace scalecast::executor {

struct ExecuteOptions {
  std::string schedule_path;
  std::string transport = "gloo";
  bool reference = false;     // the library's own collectives instead of the expansion
  double compute_scale = 1;   // compute tasks run for duration_s * compute_scale
  double timeout_s = 30;      // longest any rank waits for another
};

struct Execution {
  Schedule schedule;
  Timeline timeline;  // backend "executor-<transport>", one event per task and rank that ran it
};

// The schedule of a run of `world_size` ranks, read and checked before any rank starts; throws
// an InputError (exit code 2).
Schedule read_run_schedule(const std::string& path, int world_size);

// Rank 0 returns the measured timeline, the other ranks nothing. A bad schedule or option
// throws before the world exists; once it does, any failure on any rank stops every rank:
// the process exits with code 2 (refused input) or 1 (failure), naming the rank at fault.
std::optional<Execution> execute_rank(const ExecuteOptions& options, const LaunchEnv& env);

}  // namespace scalecast::executor
