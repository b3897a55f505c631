// The length of a union of time intervals: a layer's GPU time when its kernels run on
// several streams at once (overlap is counted once, idle gaps not at all).
#pragma once

#include <vector>

#include "profiler/activity.h"

namespace scalecast::profiler {

struct Interval {
  Nanos start = 0;
  Nanos end = 0;
};

Nanos union_length(std::vector<Interval> intervals);

}  // namespace scalecast::profiler
