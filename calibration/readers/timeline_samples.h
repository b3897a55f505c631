// A measured timeline (scalecast execute -o) as collective samples: each all-reduce the schedule
// ran on its channel, alone on the network, timed across its ranks, is one measured collective.
#pragma once

#include <string>
#include <vector>

#include "calibration/collective_sample.h"

namespace scalecast::calibration {

// Throws an InputError for a file that is not a timeline, or that holds no all-reduce.
std::vector<CollectiveSample> read_timeline_samples(const std::string& path);

}  // namespace scalecast::calibration
