// A torch.profiler Chrome trace as plain events: the Kineto format ({"traceEvents": [...]}, with
// categories and arguments) or the legacy profiler's (a list of events with names and times only).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sim/input_error.h"

namespace scalecast::profiler {

// A trace that cannot be read: the message names the file and the event (traceEvents[i]).
class TraceError : public SourceError {
 public:
  using SourceError::SourceError;
};

// One complete ("ph": "X") event. Times in microseconds, as the trace writes them.
struct TraceEvent {
  std::string name;
  std::string category;  // "cpu_op", "user_annotation", "python_function", "kernel",
                         // "cuda_runtime", ... lower-cased; empty in the legacy format
  std::string thread;    // "PID/TID": a CPU thread, or a GPU device and stream
  double start_us = 0;
  double end_us = 0;
  std::optional<int64_t> sequence;     // "Sequence number": a forward op and its autograd node
  std::optional<int64_t> correlation;  // "correlation": GPU work and the API call launching it
  std::vector<std::vector<int64_t>> input_dims;  // "Input Dims" (record_shapes)
  std::vector<std::string> input_types;         // "Input type": "float", "c10::Half", ...
};

struct TorchTrace {
  std::string path;
  bool kineto = false;              // false: the legacy profiler's list of events
  std::vector<TraceEvent> events;   // complete events in file order; other phases are dropped
  std::string device_name;          // deviceProperties[0].name when the trace has one
};

TorchTrace read_torch_trace(const std::string& path);
TorchTrace parse_torch_trace(const std::string& text, const std::string& path);

}  // namespace scalecast::profiler
