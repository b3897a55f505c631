// Which layer each autograd node of a torch.profiler trace belongs to: the layer of the forward
// op that created it, found by the sequence number both carry (Kineto) or, where the trace has
// none (the legacy profiler), by name. The rule is documented in profiler/README.md.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "profiler/torch_events.h"

namespace scalecast::profiler {

struct BackwardLinks {
  std::vector<std::string> layer;  // per event; for nodes: their layer ("" when none)
  std::map<int, int> call;         // node -> the node's own call inside it (its shapes, number)
  int unlinked = 0;                // nodes (but AccumulateGrad) whose forward op was not found
};

// `parent` from nest_events. AccumulateGrad nodes belong to the node that ran before them on
// their thread: the one that produced the gradient they accumulate.
BackwardLinks link_backward_nodes(const std::vector<TraceEvent>& events,
                                  const std::vector<EventRole>& roles,
                                  const std::vector<int>& parent);

// True for the node that accumulates a parameter's gradient.
bool is_accumulate_grad(const EventRole& role);

}  // namespace scalecast::profiler
