// Timelines as Chrome trace JSON (the Trace Event format Perfetto opens): one process per GPU
// with its compute track, and one process for communication with a track per channel or link.
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>

#include "sim/types/schedule.h"
#include "sim/types/timeline.h"

namespace scalecast {

struct TraceOptions {
  int max_gpu_tracks = 8;  // GPUs drawn; where the timeline is alike on every GPU, the first N
};

nlohmann::ordered_json chrome_trace(const Schedule& schedule, const Timeline& timeline,
                                    const TraceOptions& options = {});
void write_chrome_trace(std::ostream& out, const Schedule& schedule, const Timeline& timeline,
                        const TraceOptions& options = {});

}  // namespace scalecast
