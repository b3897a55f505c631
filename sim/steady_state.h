// Steady-state figures of a run from its timeline: iteration time after the first iteration,
// compute time per iteration, and the communication left exposed.
#pragma once

#include "sim/schedule.h"
#include "sim/timeline.h"

namespace scalecast {

// Needs at least two iterations; throws std::invalid_argument otherwise.
IterationStats steady_state(const Schedule& schedule, const Timeline& timeline);

}  // namespace scalecast
