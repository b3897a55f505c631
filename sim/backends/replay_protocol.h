// What a SimGrid replay takes and gives, free of SimGrid: its options, its result and their text
// between processes, its size estimate, and the names it is registered under. The replay itself
// (sim/backends/simgrid/) runs in a process of its own, scalecast-simgrid, so that nothing else loads it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sim/backends/backend.h"
#include "sim/types/schedule.h"
#include "sim/types/timeline.h"

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

// `args` when each is --cfg=KEY:VALUE or --log=SETTING; else an InputError saying which.
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

// The result as one line of JSON (doubles keep every digit) and back; `tasks` bounds the task
// ids the events may name.
std::string to_wire(const ReplayResult& result);
ReplayResult from_wire(const std::string& text, int tasks);

// Every expanded transfer is a flow (collectives that run alone: each distinct one once), on a
// platform of a host per GPU and server; its basis names the mode and what it folds.
RunCost replay_cost(const Schedule& schedule, ExpansionMode mode);

// Whether a communication task's expansion is invariant under a shift by whole nodes, so that a
// folded replay keeps one block of nodes of it (with ghost flows into it): ring and
// hierarchical all-reduces over every GPU, and the group collectives' rings (over all GPUs, in
// each node, along each rail).
bool block_foldable(const Schedule& schedule, const Task& task);

// The backends a replay is offered as: "simgrid" (reductions above 16 GPUs where they apply),
// "simgrid-full" and "simgrid-reduced" to force either expansion.
struct ReplayVariant {
  const char* name;
  const char* description;
  ExpansionMode mode;
};
const std::vector<ReplayVariant>& replay_variants();
const char* to_string(ExpansionMode mode);
// Throws an InputError for a name other than automatic, full or reduced.
ExpansionMode parse_expansion_mode(const std::string& text);

}  // namespace scalecast::simgrid_backend
