// Attributes GPU activities to layers: launch correlation -> launching thread and time ->
// innermost NVTX range -> layer (user ranges, or emit_nvtx seq numbers for autograd nodes)
// and phase; then per-iteration unions of kernel intervals, averaged over measured iterations.
#include "profiler/attribution.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <unordered_map>

#include "profiler/interval_union.h"
#include "profiler/mean_std.h"
#include "sim/io/input_error.h"
#include "sim/io/ranges.h"

namespace scalecast::profiler {
namespace {

constexpr double kNsPerMs = 1e6;

struct Resolution {
  const std::string* layer = nullptr;  // null: in no layer
  Phase phase = Phase::forward;
  bool missing_owner = false;  // inside an autograd node whose forward op was not found
};

// One layer's GPU intervals per measured iteration, and where it first appears.
struct LayerTimes {
  std::vector<std::vector<Interval>> forward;
  std::vector<std::vector<Interval>> backward;
  double first_forward = std::numeric_limits<double>::infinity();  // ns after iteration start
  double last_backward = -std::numeric_limits<double>::infinity();
  bool has_activity = false;
};

class Attributor {
 public:
  Attributor(const ActivityLog& log, const AttributionOptions& options)
      : log_(log), options_(options), index_(log, options.iteration_marker, warnings_) {}

  Attribution run() {
    check_log();
    classify_ranges();
    if (!user_layers_) assign_op_keys();
    collect_owners();
    Attribution out;
    attribute_activities(out);
    aggregate(out);
    out.ranges = index_.ranges();
    out.warnings = std::move(warnings_);
    return out;
  }

 private:
  const std::vector<Range>& ranges() const { return index_.ranges(); }

  void check_log() {
    const size_t iterations = index_.iterations().size();
    if (iterations == 0) {
      throw InputError("no NVTX range named '" + options_.iteration_marker + "' among the " +
                         std::to_string(ranges().size()) +
                         " ranges recorded: mark each training iteration with it "
                         "(or name the marker with --iteration-marker)");
    }
    if (static_cast<int>(iterations) <= options_.warmup) {
      throw InputError(std::to_string(iterations) + " iterations recorded and " +
                         std::to_string(options_.warmup) +
                         " dropped as warm-up: none left to measure (lower --warmup or run "
                         "more iterations)");
    }
    if (log_.dropped_records > 0) {
      warnings_.push_back("CUPTI dropped " + std::to_string(log_.dropped_records) +
                          " activity records (buffers full): layer times may be too low");
    }
    if (log_.has_nvtx_calls) {
      const uint64_t calls = log_.nvtx_calls.push + log_.nvtx_calls.start;
      if (log_.range_starts.size() < calls) {
        warnings_.push_back("the program opened " + std::to_string(calls) +
                            " NVTX ranges but only " + std::to_string(log_.range_starts.size()) +
                            " range records were captured");
      }
    }
  }

  void classify_ranges() {
    names_.reserve(ranges().size());
    for (const Range& range : ranges()) {
      names_.push_back(classify_range(range.name, options_.iteration_marker));
      if (names_.back().kind == RangeName::Kind::layer) user_layers_ = true;
    }
  }

  // Without user layer ranges, each top-level forward op of an iteration is a layer, keyed by
  // its name and its position among the top-level ops of that iteration ("aten::conv2d#0").
  void assign_op_keys() {
    op_keys_.resize(ranges().size());
    std::vector<int> next_ordinal(index_.iterations().size(), 0);
    for (size_t i = 0; i < ranges().size(); ++i) {
      if (names_[i].kind != RangeName::Kind::op || names_[i].phase) continue;
      bool top_level = true;
      for (int p = ranges()[i].parent; p >= 0 && top_level; p = ranges()[p].parent) {
        top_level = names_[p].kind != RangeName::Kind::op;
      }
      const int k = index_.iteration_at(ranges()[i].start);
      if (!top_level || k < 0) continue;
      op_keys_[i] = names_[i].label + "#" + std::to_string(next_ordinal[k]++);
    }
  }

  // emit_nvtx: an autograd node with "seq = N" belongs to the layer of the forward op that
  // created it. Every op run before the node exists shows "seq = N" too (the counter moves
  // when a node is created), so the creator is the last forward op, in time, with that number.
  void collect_owners() {
    for (size_t i = 0; i < ranges().size(); ++i) {
      const RangeName& name = names_[i];
      if (name.kind != RangeName::Kind::op || name.phase || !name.seq) continue;
      const Resolution r = resolve(static_cast<int>(i), false);
      if (r.layer && r.phase == Phase::forward) owners_[*name.seq] = *r.layer;
    }
  }

  // Walks from a range outward. The innermost layer range names the layer; the innermost
  // phase indicator (fwd:/bwd:, forward/backward, an autograd node) sets the phase; an
  // autograd node with a known seq names its forward op's layer.
  Resolution resolve(int range, bool use_owners) const {
    Resolution out;
    std::optional<Phase> phase;
    int top_op = -1;
    for (int r = range; r >= 0; r = ranges()[r].parent) {
      const RangeName& name = names_[r];
      switch (name.kind) {
        case RangeName::Kind::iteration:
          break;
        case RangeName::Kind::phase:
          if (!phase) phase = name.phase;
          break;
        case RangeName::Kind::layer:
          if (!out.layer) out.layer = &name.label;
          if (!phase) phase = name.phase;
          break;
        case RangeName::Kind::op:
          top_op = r;
          if (name.phase != Phase::backward) break;
          if (!phase) phase = Phase::backward;
          if (!out.layer && use_owners && name.seq) {
            const auto owner = owners_.find(*name.seq);
            if (owner != owners_.end()) {
              out.layer = &owner->second;
            } else {
              out.missing_owner = true;
            }
          }
          break;
      }
    }
    if (!out.layer && !user_layers_ && top_op >= 0 && !op_keys_[top_op].empty()) {
      out.layer = &op_keys_[top_op];
    }
    if (out.layer) out.missing_owner = false;
    out.phase = phase.value_or(Phase::forward);
    return out;
  }

  void attribute_activities(Attribution& out) {
    std::unordered_map<uint32_t, const ApiCall*> launches;
    for (const ApiCall& call : log_.api_calls) {
      auto [it, inserted] = launches.emplace(call.correlation, &call);
      if (!inserted && call.start < it->second->start) it->second = &call;
    }
    size_t without_launch = 0;
    size_t missing_owner = 0;
    out.activities.reserve(log_.gpu.size());
    for (const GpuActivity& activity : log_.gpu) {
      ActivityAttribution a;
      const auto launch = launches.find(activity.correlation);
      if (launch == launches.end()) {
        a.iteration = index_.iteration_at(activity.start);
        ++without_launch;
        out.activities.push_back(std::move(a));
        continue;
      }
      const ApiCall& call = *launch->second;
      a.launched = true;
      a.iteration = index_.iteration_at(call.start);
      const int range = index_.innermost(call.thread, call.start);
      if (range >= 0) {
        const Resolution r = resolve(range, true);
        if (r.layer) a.layer = *r.layer;
        a.phase = r.phase;
        if (r.missing_owner) ++missing_owner;
      }
      out.activities.push_back(std::move(a));
    }
    if (without_launch > 0) {
      warnings_.push_back(std::to_string(without_launch) +
                          " GPU activities have no launching API call in the log; they count "
                          "as unattributed");
    }
    if (missing_owner > 0) {
      warnings_.push_back(std::to_string(missing_owner) +
                          " GPU activities ran in autograd nodes whose forward op (same seq) "
                          "was not recorded; they count as unattributed");
    }
  }

  void aggregate(Attribution& out) {
    const int total = static_cast<int>(index_.iterations().size());
    const int measured = total - options_.warmup;
    for (int k = 0; k < total; ++k) {
      const Range& it = ranges()[index_.iterations()[k]];
      out.iterations.push_back(IterationSpan{it.start, it.end, k < options_.warmup});
    }
    std::map<std::string, LayerTimes> layers;
    auto layer_entry = [&](const std::string& name) -> LayerTimes& {
      LayerTimes& entry = layers[name];
      if (entry.forward.empty()) {
        entry.forward.resize(measured);
        entry.backward.resize(measured);
      }
      return entry;
    };
    auto note_position = [&](LayerTimes& entry, Phase phase, double offset) {
      if (phase == Phase::forward) {
        entry.first_forward = std::min(entry.first_forward, offset);
      } else {
        entry.last_backward = std::max(entry.last_backward, offset);
      }
    };
    // Layers named by ranges exist even when they launch nothing.
    for (size_t i = 0; i < ranges().size(); ++i) {
      const bool defines_layer =
          names_[i].kind == RangeName::Kind::layer || (!user_layers_ && !op_keys_[i].empty());
      const int k = index_.iteration_at(ranges()[i].start);
      if (!defines_layer || k < options_.warmup) continue;
      const Resolution r = resolve(static_cast<int>(i), true);
      if (!r.layer) continue;
      note_position(layer_entry(*r.layer), r.phase,
                    static_cast<double>(ranges()[i].start - out.iterations[k].start));
    }
    std::vector<std::vector<Interval>> unattributed(measured);
    for (size_t i = 0; i < log_.gpu.size(); ++i) {
      const GpuActivity& activity = log_.gpu[i];
      const ActivityAttribution& a = out.activities[i];
      if (a.iteration < 0) continue;
      IterationSpan& span = out.iterations[a.iteration];
      span.end = std::max(span.end, activity.end);
      if (a.iteration < options_.warmup) continue;
      const Interval interval{activity.start, activity.end};
      if (a.layer.empty()) {
        unattributed[a.iteration - options_.warmup].push_back(interval);
        continue;
      }
      LayerTimes& entry = layer_entry(a.layer);
      entry.has_activity = true;
      auto& per_iteration = a.phase == Phase::forward ? entry.forward : entry.backward;
      per_iteration[a.iteration - options_.warmup].push_back(interval);
      note_position(entry, a.phase,
                    static_cast<double>(activity.start) - static_cast<double>(span.start));
    }
    fill_profile(out, layers, measured);
    double unattributed_ns = 0;
    for (const auto& intervals : unattributed) {
      unattributed_ns += static_cast<double>(union_length(intervals));
    }
    out.unattributed_ms = unattributed_ns / measured / kNsPerMs;
  }

  void fill_profile(Attribution& out, const std::map<std::string, LayerTimes>& layers,
                    int measured) {
    Profile& profile = out.profile;
    profile.iterations = measured;
    profile.warmup = options_.warmup;
    profile.gpu = busiest_gpu_name(out);
    double step_ns = 0;
    for (const IterationSpan& span : out.iterations) {
      if (!span.warmup) step_ns += static_cast<double>(span.end - span.start);
    }
    profile.step_s = step_ns / measured / 1e9;
    // A profile holds what a scenario can read back: steps (and so layers) of at most an hour.
    if (!ranges::compute_time().contains(profile.step_s))
      throw InputError("a measured iteration of " + std::to_string(profile.step_s) +
                             " s on average: expected iterations " + ranges::compute_time().describe());

    struct Ordered {
      const std::string* name;
      const LayerTimes* times;
    };
    std::vector<Ordered> order;
    for (const auto& [name, times] : layers) {
      // Op-keyed layers that never launch GPU work are host-only ops: left out.
      if (!user_layers_ && !times.has_activity) continue;
      order.push_back(Ordered{&name, &times});
    }
    // Forward order: by first forward appearance; layers seen only in backward follow, in
    // reverse order of their backward appearance (the backward pass runs layers in reverse).
    std::stable_sort(order.begin(), order.end(), [](const Ordered& a, const Ordered& b) {
      const bool a_fwd = std::isfinite(a.times->first_forward);
      const bool b_fwd = std::isfinite(b.times->first_forward);
      if (a_fwd != b_fwd) return a_fwd;
      if (a_fwd) return a.times->first_forward < b.times->first_forward;
      return a.times->last_backward > b.times->last_backward;
    });
    for (const Ordered& entry : order) {
      ProfileLayer layer;
      layer.name = *entry.name;
      const MeanStd fwd = per_iteration_ms(entry.times->forward);
      const MeanStd bwd = per_iteration_ms(entry.times->backward);
      layer.forward_ms = fwd.mean;
      layer.forward_std_ms = fwd.std;
      layer.backward_ms = bwd.mean;
      layer.backward_std_ms = bwd.std;
      profile.layers.push_back(std::move(layer));
    }
  }

  static MeanStd per_iteration_ms(const std::vector<std::vector<Interval>>& per_iteration) {
    std::vector<double> values;
    values.reserve(per_iteration.size());
    for (const auto& intervals : per_iteration) {
      values.push_back(static_cast<double>(union_length(intervals)) / kNsPerMs);
    }
    return mean_std(values);
  }

  // The name of the GPU that ran the most activities in the measured iterations.
  std::string busiest_gpu_name(const Attribution& out) const {
    std::map<uint32_t, size_t> counts;
    for (size_t i = 0; i < log_.gpu.size(); ++i) {
      if (out.activities[i].iteration >= options_.warmup) ++counts[log_.gpu[i].device];
    }
    const auto busiest =
        std::max_element(counts.begin(), counts.end(),
                         [](const auto& a, const auto& b) { return a.second < b.second; });
    if (busiest == counts.end()) return "";
    for (const Device& device : log_.devices) {
      if (device.id == busiest->first) return device.name;
    }
    return "";
  }

  const ActivityLog& log_;
  const AttributionOptions& options_;
  std::vector<std::string> warnings_;
  RangeIndex index_;
  std::vector<RangeName> names_;
  bool user_layers_ = false;
  std::vector<std::string> op_keys_;
  std::unordered_map<uint64_t, std::string> owners_;
};

}  // namespace

Attribution attribute(const ActivityLog& log, const AttributionOptions& options) {
  if (options.warmup < 0) throw InputError("warm-up iterations must be >= 0");
  return Attributor(log, options).run();
}

}  // namespace scalecast::profiler
