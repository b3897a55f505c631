// The SimGrid backends as `scalecast` offers them: each replay runs in scalecast-simgrid, a
// program of its own beside `scalecast`, so that analytical commands never load SimGrid.
#pragma once

#include <string>

namespace scalecast::cli {

// scalecast-simgrid beside the running program (or SCALECAST_SIMGRID, where set); "" when there
// is none (a build without SimGrid).
std::string simgrid_program();

// Registers "simgrid", "simgrid-full" and "simgrid-reduced" when simgrid_program() finds one.
void register_simgrid_process_backends();

}  // namespace scalecast::cli
