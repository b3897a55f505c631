// predict's sweep: the methods and GPU counts a scenario runs, and each swept scenario's workload
// and memory checked (refused or warned) before any prediction runs, beside recommend's search.
#pragma once

#include <cstddef>
#include <ostream>
#include <string>
#include <vector>

#include "sim/memory/memory_fit.h"
#include "sim/scenario/scenario.h"
#include "sim/types/built_workload.h"

namespace scalecast {

// Puts the methods and GPU counts chosen on the command line (when any) in place of the
// scenario's, refusing one given twice or a scenario left with no method, and checks that each
// method is a preset and each GPU count fits the cluster.
void select_runs(Scenario& s, const std::vector<std::string>& methods, const std::vector<int>& gpus);

// One swept scenario's workload and memory, checked before any prediction runs.
struct PlannedRuns {
  BuiltWorkload workload;
  std::vector<MemoryFit> memory;  // per method and GPU count, in the order of the output
};

// Builds the scenario's workload and fits its memory for each method and GPU count; refuses a
// configuration whose estimate lies wholly over the GPU's memory unless allow_oom, and writes
// each distinct memory warning once to warnings. swept_as names the swept values (empty when
// none) for the messages.
PlannedRuns plan_runs(const Scenario& s, const std::string& swept_as, bool allow_oom, std::ostream& warnings);

}  // namespace scalecast
