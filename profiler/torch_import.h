// Turns a torch.profiler trace into a per-layer profile: layer ranges and autograd nodes give
// every operator (or, in a CUDA trace, every GPU activity through its launch) a layer and a
// phase; per-iteration unions of their intervals are averaged over the ProfilerStep iterations.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "profiler/profile.h"
#include "profiler/torch_trace.h"

namespace scalecast::profiler {

struct TraceImport {
  Profile profile;               // layers with times; gradients when the trace has their shapes
  bool gpu_times = false;        // times of GPU activities (else of CPU operators)
  bool shapes = false;           // every AccumulateGrad recorded its gradient's shape and type
  int64_t accumulate_grads = 0;  // gradient tensors accumulated in the first iteration
  double outside_layers_ms = 0;  // per iteration: work in no layer (loss, optimizer, ...)
  std::vector<std::string> warnings;
};

// Throws an InputError, naming the file and where one event is at fault its JSON pointer, when no
// work falls inside a layer range, a layer's name cannot be a CSV field, an iteration or a layer's
// pass takes more than ranges::compute_time(), or recorded gradients exceed ranges::kMaxTensors
// tensors or ranges::kMaxBytes.
TraceImport import_torch_trace(const TorchTrace& trace);

}  // namespace scalecast::profiler
