// Test helper: builds synthetic activity logs the way the injection library would record them
// (NVTX push/pop as start/end records with ids, API calls correlated with GPU activities).
#pragma once

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "profiler/activity.h"

namespace scalecast::profiler::testing {

class LogBuilder {
 public:
  // Opens a push/pop range on `thread` at time t; returns its id.
  uint32_t push(uint32_t thread, Nanos t, const std::string& name) {
    const uint32_t id = next_id_++;
    log.range_starts.push_back(RangeStart{id, thread, t, "", name});
    stacks_[thread].push_back(id);
    return id;
  }
  // Closes the innermost open range on `thread` at time t.
  void pop(uint32_t thread, Nanos t) {
    log.range_ends.push_back(RangeEnd{stacks_[thread].back(), thread, t});
    stacks_[thread].pop_back();
  }
  // Closes range `id` (opened on `thread`) at time t, whatever is open inside it.
  void end(uint32_t thread, uint32_t id, Nanos t) {
    log.range_ends.push_back(RangeEnd{id, thread, t});
    auto& stack = stacks_[thread];
    stack.erase(std::find(stack.begin(), stack.end(), id));
  }
  // A kernel launched from `thread` at time `launch`, running [start, end) on `stream`.
  void kernel(uint32_t thread, Nanos launch, uint32_t stream, Nanos start, Nanos end,
              const std::string& name = "_Z6kernelv") {
    const uint32_t correlation = next_correlation_++;
    log.api_calls.push_back(ApiCall{correlation, thread, launch, launch + 1});
    log.gpu.push_back(GpuActivity{GpuKind::kernel, correlation, 0, stream, start, end, 0, name});
  }

  ActivityLog log;

 private:
  uint32_t next_id_ = 1;
  uint32_t next_correlation_ = 1;
  std::map<uint32_t, std::vector<uint32_t>> stacks_;
};

}  // namespace scalecast::profiler::testing
