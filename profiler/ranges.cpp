// Rebuilds NVTX ranges from start/end records: pairing by id on one time-ordered pass,
// supplying missing ends, and linking each range to its enclosing range on the same thread.
#include "profiler/ranges.h"

#include <algorithm>

#include "profiler/range_names.h"

namespace scalecast::profiler {
namespace {

Nanos last_timestamp(const ActivityLog& log) {
  Nanos last = 0;
  for (const RangeStart& s : log.range_starts) last = std::max(last, s.time);
  for (const RangeEnd& e : log.range_ends) last = std::max(last, e.time);
  for (const ApiCall& c : log.api_calls) last = std::max(last, c.end);
  for (const GpuActivity& a : log.gpu) last = std::max(last, a.end);
  return last;
}

std::string quoted_examples(const std::vector<std::string>& names) {
  std::string text;
  for (size_t i = 0; i < names.size() && i < 3; ++i) text += (i ? ", '" : "'") + names[i] + "'";
  return text;
}

}  // namespace

RangeIndex::RangeIndex(const ActivityLog& log, const std::string& iteration_marker,
                       std::vector<std::string>& warnings) {
  pair_records(log, warnings);
  for (int i = 0; i < static_cast<int>(ranges_.size()); ++i) {
    if (classify_range(ranges_[i].name, iteration_marker).kind == RangeName::Kind::iteration) {
      iterations_.push_back(i);
    }
  }
  close_open_ranges(iteration_marker, last_timestamp(log), warnings);
  for (int i = 0; i < static_cast<int>(ranges_.size()); ++i) {
    by_thread_[ranges_[i].thread].push_back(i);
  }
  link_parents();
  for (size_t k = 1; k < iterations_.size(); ++k) {
    if (ranges_[iterations_[k]].start < ranges_[iterations_[k - 1]].end) {
      warnings.push_back("iteration " + std::to_string(k) + " starts before iteration " +
                         std::to_string(k - 1) + " ends: are '" + iteration_marker +
                         "' ranges nested or on several threads?");
    }
  }
}

void RangeIndex::pair_records(const ActivityLog& log, std::vector<std::string>& warnings) {
  std::vector<RangeStart> starts = log.range_starts;
  std::stable_sort(starts.begin(), starts.end(),
                   [](const RangeStart& a, const RangeStart& b) { return a.time < b.time; });
  std::vector<RangeEnd> ends = log.range_ends;
  std::stable_sort(ends.begin(), ends.end(),
                   [](const RangeEnd& a, const RangeEnd& b) { return a.time < b.time; });
  ranges_.reserve(starts.size());
  std::unordered_map<uint32_t, int> open;
  size_t unmatched_ends = 0;
  size_t reused_ids = 0;
  size_t next_end = 0;
  auto close_until = [&](Nanos limit, bool inclusive) {
    for (; next_end < ends.size() &&
           (ends[next_end].time < limit || (inclusive && ends[next_end].time == limit));
         ++next_end) {
      const auto it = open.find(ends[next_end].id);
      if (it == open.end()) {
        ++unmatched_ends;
        continue;
      }
      ranges_[it->second].end = ends[next_end].time;
      ranges_[it->second].closed = true;
      open.erase(it);
    }
  };
  for (const RangeStart& s : starts) {
    close_until(s.time, false);  // a start and an end at one instant: the start comes first
    const int index = static_cast<int>(ranges_.size());
    ranges_.push_back(Range{s.id, s.thread, s.time, s.time, false, s.domain, s.name, -1});
    if (!open.emplace(s.id, index).second) {
      ++reused_ids;
      open[s.id] = index;
    }
  }
  if (!ends.empty()) close_until(ends.back().time, true);
  if (unmatched_ends > 0) {
    warnings.push_back(std::to_string(unmatched_ends) +
                       " NVTX range end records have no open range with their id; ignored");
  }
  if (reused_ids > 0) {
    warnings.push_back(std::to_string(reused_ids) +
                       " NVTX ranges started with the id of a range still open; the older "
                       "range is treated as never closed");
  }
}

void RangeIndex::close_open_ranges(const std::string& iteration_marker, Nanos last_time,
                                   std::vector<std::string>& warnings) {
  for (size_t k = 0; k < iterations_.size(); ++k) {
    Range& it = ranges_[iterations_[k]];
    if (it.closed) continue;
    it.end = k + 1 < iterations_.size() ? ranges_[iterations_[k + 1]].start : last_time;
    it.end = std::max(it.end, it.start);
    warnings.push_back("'" + iteration_marker + "' range " + std::to_string(k) +
                       " was never closed; it ends where the next one starts (or at the end "
                       "of the log)");
  }
  std::vector<std::string> examples;
  size_t unclosed = 0;
  for (Range& range : ranges_) {
    if (range.closed) continue;
    const int k = iteration_at(range.start);
    range.end = k >= 0 ? ranges_[iterations_[k]].end : last_time;
    ++unclosed;
    if (std::find(examples.begin(), examples.end(), range.name) == examples.end()) {
      examples.push_back(range.name);
    }
  }
  if (unclosed > 0) {
    warnings.push_back(std::to_string(unclosed) +
                       " NVTX ranges were never closed (missing pop "
                       "or end, e.g. " +
                       quoted_examples(examples) +
                       "); each was closed at the end of its iteration");
  }
}

void RangeIndex::link_parents() {
  for (const auto& [thread, list] : by_thread_) {
    for (size_t i = 0; i < list.size(); ++i) {
      Range& range = ranges_[list[i]];
      range.parent = innermost_among(list, i, range.start);
      // A supplied end must not outlast the enclosing range.
      if (!range.closed && range.parent >= 0) {
        range.end = std::clamp(ranges_[range.parent].end, range.start, range.end);
      }
    }
  }
}

int RangeIndex::innermost_among(const std::vector<int>& list, size_t count, Nanos t) const {
  const auto first = list.begin();
  const auto last = std::upper_bound(first, first + static_cast<std::ptrdiff_t>(count), t,
                                     [this](Nanos time, int r) { return time < ranges_[r].start; });
  if (last == first) return -1;
  int r = *(last - 1);
  while (r >= 0 && !(ranges_[r].start <= t && t < ranges_[r].end)) r = ranges_[r].parent;
  return r;
}

int RangeIndex::innermost(uint32_t thread, Nanos t) const {
  const auto it = by_thread_.find(thread);
  if (it == by_thread_.end()) return -1;
  return innermost_among(it->second, it->second.size(), t);
}

int RangeIndex::iteration_at(Nanos t) const {
  const auto it = std::upper_bound(iterations_.begin(), iterations_.end(), t,
                                   [this](Nanos time, int r) { return time < ranges_[r].start; });
  if (it == iterations_.begin()) return -1;
  const int k = static_cast<int>(it - iterations_.begin()) - 1;
  return t < ranges_[iterations_[k]].end ? k : -1;
}

}  // namespace scalecast::profiler
