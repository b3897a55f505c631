// Estimates of a run's size: the schedule's tasks bounded from the workload and the strategy
// (messages at most one per tensor, partitions at most one more per message than bytes / size),
// the backend's events from its cost per task, memory from both; and the check against limits.
#include "sim/backends/work_estimate.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

#include "sim/io/input_error.h"
#include "sim/types/wrap_units.h"
#include "sim/io/units.h"

namespace scalecast {
namespace {

// Schedule, timeline and the scheduling policy's state of one task, in bytes.
constexpr double kBytesPerTask = 512;

std::string figure(double x) { return fmt::format("{:.3g}", x); }

}  // namespace

WorkEstimate estimate_schedule(const Workload& w, const Cluster& c, const Strategy& s, int iterations) {
  const double layers = static_cast<double>(w.layers.size());
  const double tensors = static_cast<double>(w.grad_tensor_count());
  const double micro_batches = std::max(1, w.accumulation_steps);
  const double compute = 2 * layers * micro_batches + (s.overlap_next_forward ? 0 : 1);
  const bool wrapped = s.sharding == Sharding::parameters || s.grouping == Grouping::unit;
  const double units = wrapped ? static_cast<double>(wrap_units(w).size()) : 0;
  double messages = s.grouping == Grouping::single ? std::min(1.0, tensors)
                    : s.grouping == Grouping::unit  ? units
                                                    : tensors;
  // A bucket closes once it holds its cap: at most one more bucket than the caps the bytes fill.
  const double cap = std::min(s.bucket_bytes, s.first_bucket_bytes);
  if (s.grouping == Grouping::bucket && cap > 0)
    messages = std::min(messages, std::floor(static_cast<double>(w.grad_bytes()) / cap) + 1);
  // Sharded methods send their units or buckets whole.
  if (s.partition_bytes > 0 && s.sharding == Sharding::none)
    messages += static_cast<double>(w.grad_bytes()) / s.partition_bytes;
  double comm = 0;
  if (s.sharding != Sharding::none) {
    // Per micro-batch: each unit gathered twice (ZeRO-3, FSDP), each message reduced (and
    // all-reduced on the rails); after the step, each message's parameters gathered (ZeRO-1, -2).
    if (c.gpus() > 1) comm = micro_batches * (2 * units + 2 * messages) + messages;
  } else if (s.aggregation == Aggregation::parameter_server) {
    comm = 2 * messages;
  } else if (c.gpus() > 1) {
    comm = s.aggregation == Aggregation::root_reduce ? 2 : messages;
  }
  WorkEstimate e;
  e.tasks = iterations * (compute + comm);
  e.memory_bytes = kBytesPerTask * e.tasks;
  e.basis = std::to_string(iterations) + " iterations x (" + figure(compute) + " compute + " + figure(comm) +
            " communication tasks)";
  return e;
}

WorkEstimate estimate_run(const Schedule& schedule, const Backend& backend) {
  const RunCost cost = backend.cost(schedule);
  WorkEstimate e;
  e.tasks = static_cast<double>(schedule.tasks.size());
  e.events = cost.events;
  e.memory_bytes = kBytesPerTask * e.tasks + cost.memory_bytes;
  e.basis = figure(e.tasks) + " tasks on " + std::to_string(schedule.gpus()) + " GPUs, " + backend.name() +
            " backend" + (cost.basis.empty() ? "" : ": " + cost.basis);
  return e;
}

void check_work(const WorkEstimate& e, const WorkLimits& limits, const std::string& what) {
  // Every task is at least one event, before the backend's own steps are known.
  const double events = std::max(e.events, e.tasks);
  if (events > limits.max_events)
    throw InputError(InputKind::limit, what + ": about " + figure(events) + " events (" + e.basis + "), more than the limit of " +
                         figure(limits.max_events) + "; raise it with --max-events N");
  if (e.memory_bytes > limits.max_memory_bytes)
    throw InputError(InputKind::limit, what + ": about " + units::format_bytes(e.memory_bytes) + " of memory (" + e.basis +
                         "), more than the limit of " + units::format_bytes(limits.max_memory_bytes) +
                         "; raise it with --max-memory SIZE");
}

}  // namespace scalecast
