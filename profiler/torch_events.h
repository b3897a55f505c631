// What each event of a torch.profiler trace is to the importer (a training step, a layer range,
// an autograd node, an operator, GPU work and its launch) and how the CPU events nest.
#pragma once

#include <string>
#include <vector>

#include "profiler/range_names.h"
#include "profiler/torch_trace.h"

namespace scalecast::profiler {

enum class Role {
  step,       // "ProfilerStep#N": one training iteration (torch.profiler's schedule)
  layer,      // "fwd:NAME" / "bwd:NAME" / "layer:NAME" (record_function), "nn.Module: NAME"
  node,       // "autograd::engine::evaluate_function: NAME": one autograd node's backward
  optimizer,  // "Optimizer.step#CLASS.step"
  op,         // any other CPU event: an operator or another annotation
  launch,     // a CUDA runtime or driver call with a correlation id
  gpu,        // a kernel, copy or set on a GPU, with a correlation id
  ignored,    // other python_function events, GPU annotations, ...
};

struct EventRole {
  Role role = Role::ignored;
  std::string label;            // layer: NAME; node: the node's name; optimizer: CLASS
  Phase phase = Phase::forward; // layer: backward for "bwd:NAME"
};

EventRole classify_event(const TraceEvent& event);

// The parent of every CPU event (its innermost enclosing event on the same thread), or -1.
// The legacy profiler rounds start and duration to whole microseconds apiece, so a child may
// seem to end up to 1 us after its parent; it never starts after the parent's end. At equal
// start (and end within that 1 us), steps enclose layers and the optimizer, which enclose
// autograd nodes, which enclose the rest.
std::vector<int> nest_events(const std::vector<TraceEvent>& events,
                             const std::vector<EventRole>& roles);

}  // namespace scalecast::profiler
