// The records of one profiled run, as the CUPTI injection library captures them: NVTX range
// starts and ends, CUDA API calls, and GPU work (kernels, copies, sets). Plain data, no CUDA.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace scalecast::profiler {

// Timestamps are CUPTI's: nanoseconds on one clock shared by host (API, NVTX) and GPU records.
using Nanos = uint64_t;

// One NVTX range boundary. Push/pop and start/end ranges both arrive as a start and an end
// carrying the same id; the thread is the one that opened (or closed) the range.
struct RangeStart {
  uint32_t id = 0;
  uint32_t thread = 0;
  Nanos time = 0;
  std::string domain;  // empty for the default domain
  std::string name;
};

struct RangeEnd {
  uint32_t id = 0;
  uint32_t thread = 0;
  Nanos time = 0;
};

// A CUDA runtime or driver API call; its correlation id links it to the GPU work it launched.
struct ApiCall {
  uint32_t correlation = 0;
  uint32_t thread = 0;
  Nanos start = 0;
  Nanos end = 0;
};

enum class GpuKind { kernel, memcpy, memset };

// The kind's name, as the dump file and the Chrome trace write it.
inline const char* to_string(GpuKind kind) {
  switch (kind) {
    case GpuKind::kernel:
      return "kernel";
    case GpuKind::memcpy:
      return "memcpy";
    case GpuKind::memset:
      return "memset";
  }
  return "kernel";
}

// Work executed on a GPU.
struct GpuActivity {
  GpuKind kind = GpuKind::kernel;
  uint32_t correlation = 0;
  uint32_t device = 0;
  uint32_t stream = 0;
  Nanos start = 0;
  Nanos end = 0;
  uint64_t bytes = 0;  // memcpy and memset
  std::string name;    // kernel: mangled function name; memcpy: direction ("HtoD"); memset: ""
};

struct Device {
  uint32_t id = 0;
  std::string name;  // e.g. "NVIDIA H100 80GB HBM3"
};

// How many NVTX range calls the program made, counted by the injection library's NVTX
// callbacks; compared with the range records to detect records CUPTI lost.
struct NvtxCallCounts {
  uint64_t push = 0;
  uint64_t pop = 0;
  uint64_t start = 0;
  uint64_t end = 0;
};

struct ActivityLog {
  std::vector<Device> devices;
  std::vector<RangeStart> range_starts;
  std::vector<RangeEnd> range_ends;
  std::vector<ApiCall> api_calls;
  std::vector<GpuActivity> gpu;
  NvtxCallCounts nvtx_calls;
  bool has_nvtx_calls = false;   // false when the dump carries no NVTX call counts
  uint64_t dropped_records = 0;  // records CUPTI reported as dropped (buffers full)
};

}  // namespace scalecast::profiler
