// The trace importer: iterations from ProfilerStep ranges, a (layer, phase) for each activity
// from its enclosing layer range or autograd node, per-iteration interval unions per layer, and
// gradient tensors from the AccumulateGrad nodes of the first iteration, each bounded as a
// profile CSV's reader bounds it (sim/io/ranges.h).
#include "profiler/torch_import.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <unordered_map>

#include "profiler/interval_union.h"
#include "profiler/mean_std.h"
#include "profiler/torch_backward_links.h"
#include "profiler/torch_events.h"
#include "sim/io/input_error.h"
#include "sim/io/input_text.h"
#include "sim/io/ranges.h"

namespace scalecast::profiler {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// Event times are in [0, 1e16 + 1 h] us (torch_trace.h): whole nanoseconds fit in 64 bits.
Nanos nanos(double us) { return static_cast<Nanos>(std::round(us * 1e3)); }

double ms(Nanos ns) { return static_cast<double>(ns) / 1e6; }

// Bytes per element of a tensor type as record_shapes writes it; 0 when unknown.
int element_bytes(const std::string& type) {
  if (type == "float") return 4;
  if (type == "double") return 8;
  if (type == "c10::Half" || type == "Half" || type == "c10::BFloat16" || type == "BFloat16")
    return 2;
  return 0;
}

std::string precision_of(const std::set<std::string>& types) {
  if (types == std::set<std::string>{"float"}) return "fp32";
  if (types == std::set<std::string>{"c10::Half"} || types == std::set<std::string>{"Half"})
    return "fp16";
  return "";
}

// Why a layer's name cannot be a profile CSV field, or "" when it can be one.
std::string layer_name_problem(const std::string& name) {
  if (name.empty()) return "is empty";
  for (const unsigned char c : name)
    if (c < 0x20 || c == 0x7f) return "holds a line break or control character";
  return "";
}

struct Step {
  double start = 0;
  double end = 0;
  std::string pointer;  // the ProfilerStep event's; empty for the whole trace taken as one step
};

// The legacy profiler rounds a start and a duration to whole microseconds apiece.
constexpr double kRoundingUs = 1.0;

struct LayerTimes {
  std::vector<std::vector<Interval>> forward;   // per step
  std::vector<std::vector<Interval>> backward;  // per step
  double first_forward = kInf;
  double first_backward = kInf;
};

struct Context {
  std::string layer;
  Phase phase = Phase::forward;
};

class Importer {
 public:
  explicit Importer(const TorchTrace& trace) : trace_(trace), events_(trace.events) {
    for (const TraceEvent& e : events_) {
      roles_.push_back(classify_event(e));
      if (roles_.back().role != Role::layer) continue;
      if (const std::string problem = layer_name_problem(roles_.back().label); !problem.empty())
        fail(e, "/name", "a layer name that a profile CSV can hold (this one " + problem + ")",
             quote_input(e.name));
    }
    parent_ = nest_events(events_, roles_);
    links_ = link_backward_nodes(events_, roles_, parent_);
  }

  [[noreturn]] void fail(const TraceEvent& e, const std::string& key, const std::string& expected,
                         const std::string& got) const {
    throw InputError(InputKind::file, trace_.path + ": " + e.pointer + key + ": expected " + expected + ", got " + got);
  }

  TraceImport run() {
    find_steps();
    attribute();
    fill_profile();
    fill_gradients();
    fill_metadata();
    if (links_.unlinked > 0)
      out_.warnings.push_back(std::to_string(links_.unlinked) +
                              " autograd nodes matched no forward op: their time is outside layers");
    return std::move(out_);
  }

 private:
  void find_steps() {
    for (size_t i = 0; i < events_.size(); ++i)
      if (roles_[i].role == Role::step)
        steps_.push_back({events_[i].start_us, events_[i].end_us, events_[i].pointer});
    std::sort(steps_.begin(), steps_.end(),
              [](const Step& a, const Step& b) { return a.start < b.start; });
    // Steps that overlap would give their work to one of them and leave the other's layers empty.
    for (size_t k = 1; k < steps_.size(); ++k)
      if (steps_[k].start < steps_[k - 1].end - kRoundingUs)
        throw InputError(InputKind::file, trace_.path + ": " + steps_[k].pointer +
                         fmt::format("/ts: expected a ProfilerStep that starts once the one before it ends ({} ends "
                                     "at {:.3f} us), got one starting at {:.3f} us",
                                     steps_[k - 1].pointer, steps_[k - 1].end, steps_[k].start));
    if (!steps_.empty()) {
      check_layers_within_steps();
      return;
    }
    Step whole{kInf, -kInf, ""};
    for (size_t i = 0; i < events_.size(); ++i) {
      if (roles_[i].role == Role::ignored) continue;
      whole.start = std::min(whole.start, events_[i].start_us);
      whole.end = std::max(whole.end, events_[i].end_us);
    }
    if (whole.start > whole.end) throw InputError(InputKind::file, trace_.path + ": expected profiler events, got none");
    steps_.push_back(whole);
    out_.warnings.push_back(
        "no ProfilerStep ranges (call prof.step() after each iteration): the whole trace is one "
        "iteration");
  }

  // A layer range that runs past the end of its step (or over a step's start from outside any)
  // would take the next steps' work as its own.
  void check_layers_within_steps() const {
    for (size_t i = 0; i < events_.size(); ++i) {
      if (roles_[i].role != Role::layer) continue;
      const TraceEvent& e = events_[i];
      const int step = step_at(e.start_us);
      if (step >= 0 && e.end_us > steps_[step].end + kRoundingUs)
        fail(e, "/dur",
             fmt::format("a layer range within its ProfilerStep ({}, ending at {:.3f} us)", steps_[step].pointer,
                         steps_[step].end),
             fmt::format("one ending {:.3f} us after it", e.end_us - steps_[step].end));
      if (step >= 0) continue;
      for (const Step& s : steps_)
        if (s.start > e.start_us && s.start < e.end_us - kRoundingUs)
          fail(e, "/dur", "a layer range within one ProfilerStep or outside them all",
               fmt::format("one over the start of {} at {:.3f} us", s.pointer, s.start));
    }
  }

  int step_at(double time_us) const {
    auto it = std::upper_bound(steps_.begin(), steps_.end(), time_us,
                               [](double t, const Step& s) { return t < s.start; });
    if (it == steps_.begin()) return -1;
    --it;
    return time_us <= it->end ? static_cast<int>(it - steps_.begin()) : -1;
  }

  // The innermost layer range or autograd node around event i (itself included).
  std::optional<Context> context(int i) const {
    for (; i >= 0; i = parent_[i]) {
      if (roles_[i].role == Role::layer) return Context{roles_[i].label, roles_[i].phase};
      if (roles_[i].role == Role::node) {
        if (links_.layer[i].empty()) return std::nullopt;
        return Context{links_.layer[i], Phase::backward};
      }
    }
    return std::nullopt;
  }

  // Every activity: GPU work at its launch when the trace has any, else the CPU operators.
  void attribute() {
    std::unordered_map<int64_t, int> launches;
    for (size_t i = 0; i < events_.size(); ++i)
      if (roles_[i].role == Role::launch) launches[*events_[i].correlation] = static_cast<int>(i);
    for (size_t i = 0; i < events_.size(); ++i)
      if (roles_[i].role == Role::gpu && launches.count(*events_[i].correlation))
        out_.gpu_times = true;
    outside_.resize(steps_.size());
    work_end_.assign(steps_.size(), -kInf);
    for (size_t i = 0; i < events_.size(); ++i) {
      const Role role = roles_[i].role;
      int at = static_cast<int>(i);
      if (out_.gpu_times) {
        if (role != Role::gpu) continue;
        const auto launch = launches.find(*events_[i].correlation);
        if (launch == launches.end()) continue;
        at = launch->second;
      } else if (role != Role::op && role != Role::node) {
        continue;
      }
      const int step = step_at(events_[at].start_us);
      if (step < 0) continue;
      const TraceEvent& e = events_[i];
      work_end_[step] = std::max(work_end_[step], e.end_us);
      const Interval interval{nanos(e.start_us), nanos(e.end_us)};
      const std::optional<Context> where = context(at);
      if (!where) {
        outside_[step].push_back(interval);
        continue;
      }
      LayerTimes& times = layer_times(where->layer);
      const bool forward = where->phase == Phase::forward;
      (forward ? times.forward : times.backward)[step].push_back(interval);
      double& first = forward ? times.first_forward : times.first_backward;
      first = std::min(first, e.start_us - steps_[step].start);
    }
  }

  LayerTimes& layer_times(const std::string& name) {
    auto [it, added] = layers_.try_emplace(name);
    if (added) {
      it->second.forward.resize(steps_.size());
      it->second.backward.resize(steps_.size());
    }
    return it->second;
  }

  static MeanStd per_step_ms(const std::vector<std::vector<Interval>>& per_step) {
    std::vector<double> values;
    for (const auto& intervals : per_step) values.push_back(ms(union_length(intervals)));
    return mean_std(values);
  }

  void fill_profile() {
    if (layers_.empty())
      throw InputError(InputKind::file, trace_.path +
                       ": expected work inside layer ranges, got none: record each module's "
                       "forward in a record_function(\"fwd:<module path>\") range (see "
                       "tests/fixtures/torch_traces/make_traces.py) or, with Kineto, pass "
                       "with_stack=True for its nn.Module ranges");
    Profile& profile = out_.profile;
    profile.iterations = static_cast<int>(steps_.size());
    double step_us = 0;
    for (size_t i = 0; i < steps_.size(); ++i)
      step_us += std::max(steps_[i].end, work_end_[i]) - steps_[i].start;
    profile.step_s = step_us / static_cast<double>(steps_.size()) / 1e6;
    // What a profile holds is what a scenario reads back: iterations and passes of at most 1 h.
    if (!ranges::compute_time().contains(profile.step_s))
      throw InputError(InputKind::file, trace_.path + ": expected ProfilerStep iterations " +
                       ranges::compute_time().describe() + ", got " + std::to_string(profile.step_s) +
                       " s on average (to the end of the work launched in them)");
    std::vector<double> outside;
    for (const auto& intervals : outside_) outside.push_back(ms(union_length(intervals)));
    out_.outside_layers_ms = mean_std(outside).mean;
    if (out_.gpu_times) profile.gpu = trace_.device_name;

    std::vector<const std::pair<const std::string, LayerTimes>*> order;
    for (const auto& entry : layers_) order.push_back(&entry);
    // Forward order; layers seen only in the backward pass follow, latest first.
    std::stable_sort(order.begin(), order.end(), [](const auto* a, const auto* b) {
      const bool a_fwd = std::isfinite(a->second.first_forward);
      const bool b_fwd = std::isfinite(b->second.first_forward);
      if (a_fwd != b_fwd) return a_fwd;
      if (a_fwd) return a->second.first_forward < b->second.first_forward;
      return a->second.first_backward > b->second.first_backward;
    });
    for (const auto* entry : order) {
      ProfileLayer layer;
      layer.name = entry->first;
      const MeanStd forward = per_step_ms(entry->second.forward);
      const MeanStd backward = per_step_ms(entry->second.backward);
      layer.forward_ms = forward.mean;
      layer.forward_std_ms = forward.std;
      layer.backward_ms = backward.mean;
      layer.backward_std_ms = backward.std;
      if (!ranges::compute_time().contains(std::max(forward.mean, backward.mean) * 1e-3))
        throw InputError(InputKind::file, trace_.path + ": layer " + quote_input(layer.name) +
                         ": expected a forward and a backward pass " +
                         ranges::compute_time().describe() + " per iteration, got " +
                         std::to_string(forward.mean) + " ms and " +
                         std::to_string(backward.mean) + " ms");
      profile.layers.push_back(std::move(layer));
    }
  }

  // Where an AccumulateGrad node's gradient is recorded: its own call inside it, else the node.
  const TraceEvent& shape_event(int node) const {
    const auto call = links_.call.find(node);
    return call == links_.call.end() ? events_[node] : events_[call->second];
  }

  // Bytes of the gradient an AccumulateGrad call records (its first input), at most `most`.
  int64_t gradient_bytes(const TraceEvent& e, int64_t most) const {
    const int size = element_bytes(e.input_types[0]);
    const auto& shape = e.input_dims[0];
    const auto bad = [&](const std::string& got) {
      fail(e, "/args/Input Dims/0",
           "a tensor shape of extents >= 0 (the model's gradients at most 1 PB in all)", got);
    };
    if (!shape) bad("no tensor shape");
    std::string text;
    for (const int64_t extent : *shape) text += (text.empty() ? "" : ", ") + std::to_string(extent);
    int64_t elements = 1;
    for (const int64_t extent : *shape) {
      if (extent < 0 || (extent > 0 && elements > most / size / extent)) bad("[" + text + "]");
      elements *= extent;
    }
    return elements * size;
  }

  // The AccumulateGrad nodes of the first iteration, in the order the backward pass ran them.
  void fill_gradients() {
    std::vector<int> nodes;
    for (size_t i = 0; i < events_.size(); ++i)
      if (is_accumulate_grad(roles_[i]) && step_at(events_[i].start_us) == 0)
        nodes.push_back(static_cast<int>(i));
    std::stable_sort(nodes.begin(), nodes.end(),
                     [&](int a, int b) { return events_[a].start_us < events_[b].start_us; });
    out_.accumulate_grads = static_cast<int64_t>(nodes.size());
    out_.shapes = !nodes.empty() && std::all_of(nodes.begin(), nodes.end(), [&](int node) {
      const TraceEvent& e = shape_event(node);
      return !e.input_dims.empty() && !e.input_types.empty() && element_bytes(e.input_types[0]) > 0;
    });
    if (!out_.shapes) return;
    if (out_.accumulate_grads > ranges::kMaxTensors)
      throw InputError(InputKind::file, trace_.path + ": expected at most " + std::to_string(ranges::kMaxTensors) +
                       " gradient tensors (AccumulateGrad calls in the first ProfilerStep), got " +
                       std::to_string(out_.accumulate_grads));
    std::map<std::string, std::vector<int64_t>> bytes_by_layer;
    int64_t lost = 0;
    int64_t bytes_left = static_cast<int64_t>(ranges::kMaxBytes);
    for (const int node : nodes) {
      const TraceEvent& e = shape_event(node);
      const int64_t bytes = gradient_bytes(e, bytes_left);
      bytes_left -= bytes;
      types_.insert(e.input_types[0]);
      if (links_.layer[node].empty() || !layers_.count(links_.layer[node])) {
        ++lost;
        continue;
      }
      bytes_by_layer[links_.layer[node]].push_back(bytes);
    }
    if (lost > 0)
      out_.warnings.push_back(std::to_string(lost) + " gradient tensors accumulate outside "
                              "every layer: they are not in the profile");
    out_.profile.has_grad_tensor_bytes = true;
    for (ProfileLayer& layer : out_.profile.layers) {
      const auto it = bytes_by_layer.find(layer.name);
      if (it == bytes_by_layer.end()) continue;
      layer.grad_tensor_bytes = it->second;
      layer.grad_tensors = static_cast<int64_t>(it->second.size());
      for (const int64_t b : it->second) layer.grad_bytes += b;
    }
  }

  void fill_metadata() {
    if (out_.shapes) out_.profile.precision = precision_of(types_);
    for (size_t i = 0; i < events_.size(); ++i) {
      if (roles_[i].role != Role::optimizer) continue;
      const std::string& name = roles_[i].label;
      if (name == "SGD") out_.profile.optimizer = "sgd";
      else if (name == "Adam" || name == "AdamW") out_.profile.optimizer = "adam";
      else out_.warnings.push_back("optimizer " + quote_input(name) +
                                   " is not modelled (sgd, adam): no # optimizer line");
      return;
    }
  }

  const TorchTrace& trace_;
  const std::vector<TraceEvent>& events_;
  std::vector<EventRole> roles_;
  std::vector<int> parent_;
  BackwardLinks links_;
  std::vector<Step> steps_;
  std::map<std::string, LayerTimes> layers_;
  std::vector<std::vector<Interval>> outside_;  // per step
  std::vector<double> work_end_;  // per step: the end of the work launched in it (GPU work
                                  // may end after its step's range)
  std::set<std::string> types_;                 // of the gradients
  TraceImport out_;
};

}  // namespace

TraceImport import_torch_trace(const TorchTrace& trace) { return Importer(trace).run(); }

}  // namespace scalecast::profiler
