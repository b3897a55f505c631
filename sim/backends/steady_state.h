// Steady-state figures of a run from its timeline: iteration time after the first iteration,
// compute time per iteration, and the communication left exposed.
#pragma once

#include "sim/types/schedule.h"
#include "sim/types/timeline.h"

namespace scalecast {

// The mean spacing of iteration ends after the first, as a measured run is read. Needs at least
// two iterations; throws an InputError otherwise.
IterationStats steady_state(const Schedule& schedule, const Timeline& timeline);

// The steady state of a simulated run, from its first iteration and the next forward pass.
// Every schedule schedule_builder makes is periodic from its first backward pass on: when
// iteration k+1's backward starts, its forward pass is over, so every message of iteration k has
// ended (the optimizer waits for them all, or with per-layer updates each layer's next forward
// waits for its own): links, channel, credit and queues are empty, and iteration k+1 runs as a
// shift in time of iteration k. The period is therefore the spacing of the ends of two forward
// passes, iteration 0's and 1's, and later iterations repeat it up to rounding (a longer run has
// more instants at which fluid flows are integrated, and a tie can then break the other way:
// ByteScheduler over BytePS moves by up to 1e-4 of an iteration). Needs a schedule with iteration
// 1's forward pass (build_schedule's next_forward); compute_s is iteration 0's.
IterationStats simulated_steady_state(const Schedule& schedule, const Timeline& timeline);

}  // namespace scalecast
