// Sharded data parallel as tasks. Per unit, in the forward: an all-gather of its parameters, at
// most `gathers_in_flight` units ahead of the compute (FSDP's rate limiter: a unit's all-gather
// waits until the unit that many before it has run its forward and freed its parameters). In the
// backward: the unit's all-gather again where parameters are resharded after the forward, issued
// as the unit above it starts its backward (BACKWARD_PRE prefetch), then its gradients reduce-
// scattered (and all-reduced across nodes on each rail under a hybrid shard). The optimizer steps
// on the shard; ZeRO-1 and -2 all-gather the updated parameters after it.
#include "sim/schedules/sharding/sharded_schedule.h"

#include <algorithm>
#include <array>
#include <string>
#include <vector>

#include "sim/collectives/algorithm_choice.h"
#include "sim/schedules/grouping.h"
#include "sim/network/link_capacities.h"
#include "sim/types/wrap_units.h"
#include "sim/schedules/task_appender.h"

namespace scalecast {
namespace {

// FSDP's passes over a unit's gradient before its reduce-scatter, in bytes per parameter
// (_post_backward_hook): autograd assembles the flat parameter's gradient from its views'
// (read and written at the width the model holds its parameters), FSDP casts it to the reduce
// width when that differs (read, written: narrower under fp32 parameters, wider under an fp32
// reduce_dtype) and pre-divides it in place (read, written).
double flat_gradient_bytes_per_parameter(double parameter_bytes, double reduce_bytes) {
  const double cast = parameter_bytes != reduce_bytes ? parameter_bytes + reduce_bytes : 0;
  return 2 * parameter_bytes + cast + 2 * reduce_bytes;
}

class ShardedBuilder : TaskAppender {
 public:
  ShardedBuilder(const Workload& w, const Cluster& c, const Strategy& s, Schedule& out, bool names)
      : TaskAppender(w, out, names), w_(w), c_(c), s_(s), links_(link_capacities(c, s)) {}

  void prepare(int iterations) {
    const int layers = static_cast<int>(w_.layers.size());
    units_ = wrap_units(w_);
    const int units = static_cast<int>(units_.size());
    shard_gpus_ = shard_group_gpus(s_, c_.gpus(), c_.gpus_per_node);
    shard_group_ = shard_gpus_ == c_.gpus() ? CommGroup::all : CommGroup::node;
    rails_ = s_.shard_in_node && c_.nodes > 1;
    for (const WrapUnit& u : units_) {
      // A block by its name; a run of layers outside the blocks by its first layer's.
      const std::string& first = w_.layers[static_cast<std::size_t>(u.first_layer)].name;
      const std::string block = !names_ ? "" : u.root ? first : block_of(first);
      gather_names_.push_back(names_ ? std::array{name("all_gather fwd " + block), name("all_gather bwd " + block)}
                                     : std::array{-1, -1});
      unit_tensors_.push_back(0);
      for (int l = u.first_layer; l <= u.last_layer; ++l)
        unit_tensors_.back() += static_cast<int>(w_.layers[static_cast<std::size_t>(l)].grads.size());
      flat_gradient_s_.push_back(flat_gradient_s(u));
    }
    messages_ = group_gradients(w_, s_, collectives::fit_alpha_beta(links_, s_.algorithm));
    for (std::size_t k = 0; k < messages_.size(); ++k) {
      const bool allreduce = s_.sharding == Sharding::optimizer;
      if (names_) {
        const std::string n = " #" + std::to_string(k);
        message_names_.push_back({name(allreduce ? "allreduce" + n : "reduce_scatter" + n), name("allreduce rail" + n),
                                  name("all_gather params" + n)});
      } else {
        message_names_.push_back({-1, -1, -1});
      }
      algorithms_.push_back(allreduce ? &collectives::choose_allreduce(links_, s_.algorithm, messages_[k].bytes)
                                      : &collectives::allreduce_algorithm("ring"));
    }
    forward_.assign(static_cast<std::size_t>(layers), -1);
    backward_.assign(static_cast<std::size_t>(layers), -1);
    unit_forward_end_.assign(static_cast<std::size_t>(units), -1);
    before_backward_.assign(static_cast<std::size_t>(units), -1);
    const std::size_t per_micro_batch = static_cast<std::size_t>(2 * layers + 2 * units) + 2 * messages_.size();
    out_.tasks.reserve(static_cast<std::size_t>(iterations) *
                       (per_micro_batch * static_cast<std::size_t>(micro_batches()) + messages_.size() + 1));
  }

  void iteration(int it) {
    std::vector<int> synced;  // every gradient collective of the iteration: the step waits for all
    for (int m = 0; m < micro_batches(); ++m) {
      forward_pass(it, m == 0);
      backward_pass(it);
      // ZeRO-1 keeps whole gradients and all-reduces them once; the others reduce-scatter each
      // micro-batch's into the shard (a hybrid shard then all-reduces the shard across nodes).
      const bool last = m + 1 == micro_batches();
      if (s_.sharding == Sharding::optimizer && !last) continue;
      for (std::size_t k = 0; k < messages_.size(); ++k) synced.push_back(reduce_gradients(k, it));
    }
    Task& opt = add(TaskKind::optimizer, optimizer_name_, it);
    opt.duration_s = w_.optimizer_s / shard_gpus_;
    link(opt, last_compute_);
    for (int d : synced) link(opt, d);
    last_compute_ = opt.id;
    step_gathers_.clear();
    if (s_.sharding == Sharding::parameters || shard_gpus_ <= 1) return;
    for (std::size_t k = 0; k < messages_.size(); ++k) {
      Task& ag = comm(CommOp::all_gather, shard_group_, messages_[k], it, message_names_[k][2]);
      link(ag, opt.id);
      step_gathers_.push_back(ag.id);
    }
  }

  // A forward pass; the first of an iteration waits for the previous iteration's step (and the
  // all-gathers of its updated parameters).
  void forward_pass(int it, bool first) {
    const int start = last_compute_;
    for (std::size_t u = 0; u < units_.size(); ++u) {
      const WrapUnit& unit = units_[u];
      int gather = -1;
      if (gathers_per_unit() && unit.grad_bytes > 0) {
        Task& ag = comm(CommOp::all_gather, shard_group_, unit_message(u), it, gather_names_[u][0]);
        const std::size_t ahead = static_cast<std::size_t>(std::max(1, s_.gathers_in_flight));
        link(ag, u >= ahead ? unit_forward_end_[u - ahead] : start);
        gather = ag.id;
      }
      for (int l = unit.first_layer; l <= unit.last_layer; ++l) {
        Task& t = add(TaskKind::forward, forward_names_[static_cast<std::size_t>(l)], it);
        t.layer = l;
        t.duration_s = w_.layers[static_cast<std::size_t>(l)].forward_s;
        link(t, last_compute_);
        if (l == unit.first_layer) link(t, gather);
        if (first && l == 0)
          for (int d : step_gathers_) link(t, d);
        last_compute_ = forward_[static_cast<std::size_t>(l)] = t.id;
      }
      unit_forward_end_[u] = last_compute_;
    }
  }

 private:
  int micro_batches() const { return std::max(1, w_.accumulation_steps); }

  // Parameters are gathered unit by unit: sharded (ZeRO-3, FSDP) among more than one GPU.
  bool gathers_per_unit() const { return s_.sharding == Sharding::parameters && shard_gpus_ > 1; }

  void backward_pass(int it) {
    const bool regather = gathers_per_unit() && s_.reshard_after_forward;
    for (int u = static_cast<int>(units_.size()) - 1; u >= 0; --u) {
      const std::size_t i = static_cast<std::size_t>(u);
      const WrapUnit& unit = units_[i];
      before_backward_[i] = last_compute_;
      int gather = -1;
      // FSDP keeps the root unit's parameters from its forward to its backward.
      if (regather && !unit.root && unit.grad_bytes > 0) {
        Task& ag = comm(CommOp::all_gather, shard_group_, unit_message(i), it, gather_names_[i][1]);
        link(ag, i + 1 < units_.size() ? before_backward_[i + 1] : last_compute_);
        gather = ag.id;
      }
      for (int l = unit.last_layer; l >= unit.first_layer; --l) {
        Task& t = add(TaskKind::backward, backward_names_[static_cast<std::size_t>(l)], it);
        t.layer = l;
        t.duration_s = w_.layers[static_cast<std::size_t>(l)].backward_s;
        link(t, last_compute_);
        if (l == unit.last_layer) link(t, gather);
        if (l == unit.first_layer) t.duration_s += flat_gradient_s_[i];
        last_compute_ = backward_[static_cast<std::size_t>(l)] = t.id;
      }
    }
  }

  // Message k's gradients of this micro-batch, once its last layer's backward has made them;
  // returns the task after which they are in the shard.
  int reduce_gradients(std::size_t k, int it) {
    const Message& m = messages_[k];
    const int release = m.release_layer >= 0 ? m.release_layer : m.first_layer;
    int done = backward_[static_cast<std::size_t>(release)];
    if (s_.sharding == Sharding::optimizer) {
      if (c_.gpus() <= 1) return done;
      Task& ar = comm(CommOp::allreduce, CommGroup::all, m, it, message_names_[k][0]);
      ar.algorithm = algorithms_[k];
      ar.delay_s = m.delay_s;
      link(ar, done);
      return ar.id;
    }
    if (shard_gpus_ > 1) {
      Task& rs = comm(CommOp::reduce_scatter, shard_group_, m, it, message_names_[k][0]);
      rs.delay_s = m.delay_s;
      link(rs, done);
      done = rs.id;
    }
    if (rails_) {
      Message shard = m;
      shard.bytes = m.bytes / shard_gpus_;
      Task& ar = comm(CommOp::allreduce, CommGroup::rail, shard, it, message_names_[k][1]);
      ar.algorithm = algorithms_[k];
      link(ar, done);
      done = ar.id;
    }
    return done;
  }

  // A unit's parameters as gathered: at the width the model holds them under FSDP's flat
  // parameters (fp32 under autocast), else at their gradients' (ZeRO-3, whose half-precision runs
  // keep half-width parameters).
  double gathered_bytes(const WrapUnit& unit) const {
    return s_.flat_parameters && w_.parameter_bytes > 0 ? unit.parameters * w_.parameter_bytes : unit.grad_bytes;
  }

  Message unit_message(std::size_t u) const {
    const WrapUnit& unit = units_[u];
    return {gathered_bytes(unit), unit.first_layer, unit.last_layer, unit_tensors_[u], -1, 0};
  }

  // FSDP's passes over a unit's gradient before its reduce-scatter, on the GPU's memory at the
  // compute model's streaming rate; run by its backward's last task. None without a reduce-scatter.
  double flat_gradient_s(const WrapUnit& unit) const {
    if (!s_.flat_parameters || shard_gpus_ <= 1 || w_.streaming_bandwidth <= 0 || unit.parameters <= 0) return 0;
    const double bytes = flat_gradient_bytes_per_parameter(gathered_bytes(unit) / unit.parameters,
                                                           unit.grad_bytes / unit.parameters);
    return unit.parameters * bytes / w_.streaming_bandwidth;
  }

  Task& comm(CommOp op, CommGroup group, const Message& m, int it, int name) {
    Task& t = add(TaskKind::comm, name, it);
    t.op = op;
    t.group = group;
    t.bytes = m.bytes;
    t.first_layer = m.first_layer;
    t.last_layer = m.last_layer;
    t.tensors = m.tensors;
    t.priority = s_.priority ? m.first_layer : counter_++;
    return t;
  }

  const Workload& w_;
  const Cluster& c_;
  const Strategy& s_;
  LinkCapacities links_;
  std::vector<WrapUnit> units_;
  std::vector<int> unit_tensors_;
  std::vector<double> flat_gradient_s_;  // per unit: FSDP's passes over its gradient
  std::vector<Message> messages_;
  std::vector<const collectives::AllreduceAlgorithm*> algorithms_;
  int shard_gpus_ = 1;
  CommGroup shard_group_ = CommGroup::all;
  bool rails_ = false;
  std::vector<std::array<int, 2>> gather_names_;   // per unit: forward and backward all-gather
  std::vector<std::array<int, 3>> message_names_;  // per message: reduce, rail all-reduce, gather
  std::vector<int> forward_, backward_;        // this micro-batch's task per layer
  std::vector<int> unit_forward_end_;          // this forward's last task per unit
  std::vector<int> before_backward_;           // the compute task before each unit's backward
  std::vector<int> step_gathers_;              // the latest step's all-gathers (ZeRO-1, -2)
  int last_compute_ = -1;
  int counter_ = 0;
};

}  // namespace

void build_sharded_tasks(const Workload& workload, const Cluster& cluster, const Strategy& strategy, int iterations,
                         bool next_forward, bool task_names, Schedule& out) {
  ShardedBuilder builder(workload, cluster, strategy, out, task_names);
  builder.prepare(out.iterations);
  for (int it = 0; it < iterations; ++it) builder.iteration(it);
  if (next_forward) builder.forward_pass(iterations, true);
}

}  // namespace scalecast
