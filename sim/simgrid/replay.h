// The replay of a schedule in one SimGrid simulation: platform, transport, and a controller
// actor that runs the DAG with the analytical backend's streams, channel, priorities and credit.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sim/schedule.h"
#include "sim/timeline.h"

namespace scalecast::simgrid_backend {

enum class ExpansionMode {
  automatic,  // reduced above ReplayOptions::reduce_above_gpus GPUs where reductions apply
  full,       // every transfer of every step simulated
  reduced,    // reductions wherever they apply
};

struct ReplayOptions {
  ExpansionMode expansion = ExpansionMode::automatic;
  // Reductions are exact where they apply (replay.cpp says where); below this size the full
  // replay is cheap and stays the reference.
  int reduce_above_gpus = 16;
  bool progress = true;  // a line on stderr every few seconds once a run takes that long
  // SimGrid's own options, each --cfg=KEY:VALUE (applied after scalecast's transport settings,
  // so they win) or --log=SETTING (after scalecast's default: warnings shown).
  std::vector<std::string> engine_args;
};

// `args` when each is --cfg=KEY:VALUE or --log=SETTING; else std::invalid_argument saying which.
std::vector<std::string> checked_engine_args(const std::vector<std::string>& args);

struct ReplayStats {
  double wall_s = 0;                 // the simulation, platform included
  double peak_rss_mb = 0;            // peak resident memory of the simulating process
  uint64_t transfers_expanded = 0;   // transfers of all expansions (full would simulate these)
  uint64_t transfers_simulated = 0;  // transfers run as SimGrid flows
  bool reduced = false;              // some task ran reduced (symmetry block or one node)
};

struct ReplayResult {
  Timeline timeline;
  ReplayStats stats;
};

// Runs in the calling process, which must never have created a SimGrid Engine: SimGrid 3.32
// keeps global state (the clock among it) from one Engine to the next. Use run_isolated().
ReplayResult replay(const Schedule& schedule, const ReplayOptions& options);

}  // namespace scalecast::simgrid_backend
