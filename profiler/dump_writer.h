// Writes an activity dump (format in dump_format.h) record by record; used by the CUPTI
// injection library while a program runs, and by tests to build dumps.
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>

#include "profiler/activity.h"

namespace scalecast::profiler {

class DumpWriter {
 public:
  // Writes the header line.
  explicit DumpWriter(std::ostream& out);

  void write(const Device& device);
  void write(const RangeStart& start);
  void write(const RangeEnd& end);
  void write(const ApiCall& call);
  void write(const GpuActivity& activity);
  // Writes the NVTX call counts (when known), the dropped-record count and the `end` trailer.
  void finish(const std::optional<NvtxCallCounts>& nvtx_calls, uint64_t dropped_records);

 private:
  std::ostream& out_;
  uint64_t records_ = 0;
};

// Writes a whole log (header, records, trailer).
void write_dump(std::ostream& out, const ActivityLog& log);

}  // namespace scalecast::profiler
