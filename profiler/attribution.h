// Attribution: every GPU activity goes to the innermost NVTX range open on the thread that
// launched it, and from there to a layer and a phase; per-layer times are averaged over the
// measured iterations. The naming convention is documented in profiler/README.md.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "profiler/activity.h"
#include "profiler/profile.h"
#include "profiler/range_names.h"
#include "profiler/ranges.h"

namespace scalecast::profiler {

struct AttributionOptions {
  std::string iteration_marker = "iteration";
  int warmup = 2;  // leading iterations dropped
};

struct ActivityAttribution {
  bool launched = false;  // the API call that launched it is in the log
  int iteration = -1;     // index into Attribution::iterations; -1: outside every iteration
  std::string layer;      // empty: in no layer
  Phase phase = Phase::forward;
};

struct IterationSpan {
  Nanos start = 0;
  Nanos end = 0;  // the later of the range's end and the end of the GPU work launched in it
  bool warmup = false;
};

struct Attribution {
  Profile profile;  // layers with times; iterations, warmup, step_s and gpu filled
  std::vector<Range> ranges;
  std::vector<IterationSpan> iterations;
  std::vector<ActivityAttribution> activities;  // parallel to ActivityLog::gpu
  double unattributed_ms = 0;                   // mean GPU time per measured iteration in no layer
  std::vector<std::string> warnings;
};

Attribution attribute(const ActivityLog& log, const AttributionOptions& options);

}  // namespace scalecast::profiler
