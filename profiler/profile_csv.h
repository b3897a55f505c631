// Writes the profile CSV that the simulator reads ("# scalecast profile v1"): metadata lines,
// then one row per layer in forward order, times in ms per iteration with ns resolution.
#pragma once

#include <ostream>

#include "profiler/profile.h"

namespace scalecast::profiler {

// Throws an InputError when a layer name cannot be written as a CSV field (it holds
// a comma, quote or line break) or a metadata value holds a line break.
void write_profile_csv(std::ostream& out, const Profile& profile);

}  // namespace scalecast::profiler
