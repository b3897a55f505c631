// The replay of a schedule in one SimGrid simulation: platform, transport, and a controller
// actor that runs the DAG with the analytical backend's streams, channel, priorities and credit.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sim/backends/replay_protocol.h"
#include "sim/types/schedule.h"
#include "sim/types/timeline.h"

namespace scalecast::simgrid_backend {

// Runs in the calling process, which must never have created a SimGrid Engine: SimGrid 3.32
// keeps global state (the clock among it) from one Engine to the next. Use run_isolated().
ReplayResult replay(const Schedule& schedule, const ReplayOptions& options);

}  // namespace scalecast::simgrid_backend
