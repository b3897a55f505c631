// NVTX ranges rebuilt from their start and end records: paired by id, missing ends supplied
// (at the end of the enclosing iteration), nested per thread, and searchable by time.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "profiler/activity.h"

namespace scalecast::profiler {

struct Range {
  uint32_t id = 0;
  uint32_t thread = 0;
  Nanos start = 0;
  Nanos end = 0;
  bool closed = true;  // false: the end record was missing and `end` was supplied
  std::string domain;
  std::string name;
  int parent = -1;  // innermost range on the same thread that was open when this one started
};

class RangeIndex {
 public:
  // Pairs the log's range records. Ranges named `iteration_marker` are the iterations; a
  // range never closed ends where its iteration ends (an iteration never closed ends where
  // the next one starts, or at the last timestamp of the log). Problems go to `warnings`.
  RangeIndex(const ActivityLog& log, const std::string& iteration_marker,
             std::vector<std::string>& warnings);

  // All ranges, in order of start time.
  const std::vector<Range>& ranges() const { return ranges_; }
  // Indices (into ranges()) of the iteration ranges, in order of start time.
  const std::vector<int>& iterations() const { return iterations_; }
  // The innermost range on `thread` open at time t (start <= t < end), or -1. Ranges on one
  // thread are taken to nest, as push/pop ranges always do.
  int innermost(uint32_t thread, Nanos t) const;
  // The iteration (index into iterations()) whose range contains t, or -1.
  int iteration_at(Nanos t) const;

 private:
  void pair_records(const ActivityLog& log, std::vector<std::string>& warnings);
  void close_open_ranges(const std::string& iteration_marker, Nanos last_time,
                         std::vector<std::string>& warnings);
  void link_parents();
  int innermost_among(const std::vector<int>& thread_ranges, size_t count, Nanos t) const;

  std::vector<Range> ranges_;
  std::vector<int> iterations_;
  std::unordered_map<uint32_t, std::vector<int>> by_thread_;  // range indices by start time
};

}  // namespace scalecast::profiler
