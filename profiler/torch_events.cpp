// Classifies torch.profiler events by name and category, and rebuilds their nesting per thread
// with a stack over the events in start order.
#include "profiler/torch_events.h"

#include <algorithm>
#include <map>
#include <string_view>

namespace scalecast::profiler {
namespace {

constexpr std::string_view kNodePrefix = "autograd::engine::evaluate_function: ";
constexpr std::string_view kModulePrefix = "nn.Module: ";
constexpr std::string_view kOptimizerPrefix = "Optimizer.step#";
constexpr double kRoundingUs = 1.0;

bool is_one_of(const std::string& text, std::initializer_list<std::string_view> names) {
  return std::find(names.begin(), names.end(), text) != names.end();
}

// Outer events first when two share their start and end.
int nesting_rank(Role role) {
  switch (role) {
    case Role::step: return 0;
    case Role::layer:
    case Role::optimizer: return 1;
    case Role::node: return 2;
    default: return 3;
  }
}

bool on_cpu_thread(Role role) { return role != Role::gpu && role != Role::ignored; }

}  // namespace

EventRole classify_event(const TraceEvent& event) {
  EventRole out;
  const std::string& category = event.category;
  const std::string& name = event.name;
  if (is_one_of(category, {"kernel", "gpu_memcpy", "gpu_memset", "memcpy", "memset"})) {
    if (event.correlation) out.role = Role::gpu;
    return out;
  }
  if (is_one_of(category, {"cuda_runtime", "cuda_driver", "runtime", "driver"})) {
    if (event.correlation) out.role = Role::launch;
    return out;
  }
  if (category == "python_function") {
    if (name.starts_with(kModulePrefix) && name.size() > kModulePrefix.size()) {
      out.role = Role::layer;
      out.label = name.substr(kModulePrefix.size());
    }
    return out;
  }
  if (!is_one_of(category, {"", "cpu_op", "operator", "user_annotation"})) return out;
  if (name.starts_with("ProfilerStep#")) {
    out.role = Role::step;
  } else if (name.starts_with(kNodePrefix)) {
    out.role = Role::node;
    out.label = name.substr(kNodePrefix.size());
  } else if (name.starts_with(kOptimizerPrefix)) {
    out.role = Role::optimizer;
    out.label = name.substr(kOptimizerPrefix.size(), name.find('.', kOptimizerPrefix.size()) -
                                                         kOptimizerPrefix.size());
  } else if (const RangeName range = classify_range(name, "");
             range.kind == RangeName::Kind::layer) {
    out.role = Role::layer;
    out.label = range.label;
    out.phase = range.phase.value_or(Phase::forward);
  } else {
    out.role = Role::op;
  }
  return out;
}

std::vector<int> nest_events(const std::vector<TraceEvent>& events,
                             const std::vector<EventRole>& roles) {
  std::map<std::string, std::vector<int>> by_thread;
  for (size_t i = 0; i < events.size(); ++i)
    if (on_cpu_thread(roles[i].role)) by_thread[events[i].thread].push_back(static_cast<int>(i));
  std::vector<int> parent(events.size(), -1);
  for (auto& [thread, indices] : by_thread) {
    // By start, then outer first: ranges get the rounding's slack on their end, so that a
    // range and an operator it holds, ending within it, still sort range first.
    const auto sort_end = [&](int i) {
      return events[i].end_us + (nesting_rank(roles[i].role) < 3 ? kRoundingUs : 0);
    };
    std::stable_sort(indices.begin(), indices.end(), [&](int a, int b) {
      if (events[a].start_us != events[b].start_us) return events[a].start_us < events[b].start_us;
      if (sort_end(a) != sort_end(b)) return sort_end(a) > sort_end(b);
      return nesting_rank(roles[a].role) < nesting_rank(roles[b].role);
    });
    std::vector<int> open;
    for (const int i : indices) {
      const TraceEvent& e = events[i];
      while (!open.empty()) {
        const TraceEvent& top = events[open.back()];
        if (e.start_us <= top.end_us && e.end_us <= top.end_us + kRoundingUs) break;
        open.pop_back();
      }
      parent[i] = open.empty() ? -1 : open.back();
      open.push_back(i);
    }
  }
  return parent;
}

}  // namespace scalecast::profiler
