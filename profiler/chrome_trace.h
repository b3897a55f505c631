// Writes the raw timeline of a profiled run as Chrome trace JSON (opens in Perfetto): one
// track per GPU stream, one per host thread for its NVTX ranges, kernels tagged with layers.
#pragma once

#include <ostream>

#include "profiler/activity.h"
#include "profiler/attribution.h"

namespace scalecast::profiler {

void write_chrome_trace(std::ostream& out, const ActivityLog& log, const Attribution& attribution);

}  // namespace scalecast::profiler
