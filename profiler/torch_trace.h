// A torch.profiler Chrome trace as plain events: the Kineto format ({"traceEvents": [...]}, with
// categories and arguments) or the legacy profiler's (a list of events with names and times only).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>


namespace scalecast::profiler {

// One complete ("ph": "X") event. Times in microseconds, as the trace writes them: a start in
// [0, 1e16] (Kineto writes microseconds since the epoch or since the trace's start), a duration
// in [0, 1 h], so that both are whole nanoseconds in 64 bits.
struct TraceEvent {
  std::string name;
  std::string pointer;   // the event's JSON pointer: "/traceEvents/12" (Kineto) or "/12" (legacy)
  std::string category;  // "cpu_op", "user_annotation", "python_function", "kernel",
                         // "cuda_runtime", ... lower-cased; empty in the legacy format
  std::string thread;    // "PID/TID": a CPU thread, or a GPU device and stream
  double start_us = 0;
  double end_us = 0;
  std::optional<int64_t> sequence;     // "Sequence number": a forward op and its autograd node
  std::optional<int64_t> correlation;  // "correlation": GPU work and the API call launching it
  // "Input Dims" (record_shapes): one entry per input, nullopt where the input is no tensor of
  // int64 extents (a list of tensors, a scalar argument written otherwise).
  std::vector<std::optional<std::vector<int64_t>>> input_dims;
  std::vector<std::string> input_types;  // "Input type": "float", "c10::Half", ...
};

struct TorchTrace {
  std::string path;
  std::vector<TraceEvent> events;   // complete events in file order; other phases are dropped
  std::string device_name;          // deviceProperties[0].name when the trace has one
};

TorchTrace read_torch_trace(const std::string& path);
// `path` names the text in errors.
TorchTrace parse_torch_trace(const std::string& text, const std::string& path);

}  // namespace scalecast::profiler
