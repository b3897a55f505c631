// Sweeps sorted intervals once, merging overlapping or touching ones, to measure their union.
#include "profiler/interval_union.h"

#include <algorithm>

namespace scalecast::profiler {

Nanos union_length(std::vector<Interval> intervals) {
  std::sort(intervals.begin(), intervals.end(),
            [](const Interval& a, const Interval& b) { return a.start < b.start; });
  Nanos total = 0;
  bool open = false;
  Interval current;
  for (const Interval& next : intervals) {
    if (open && next.start <= current.end) {
      current.end = std::max(current.end, next.end);
      continue;
    }
    if (open) total += current.end - current.start;
    current = next;
    open = true;
  }
  if (open) total += current.end - current.start;
  return total;
}

}  // namespace scalecast::profiler
