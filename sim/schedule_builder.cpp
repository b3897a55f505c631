// Schedule construction: forward and backward tasks per layer, messages from the grouping knob,
// partitions, all-reduce or push/pull tasks, and the dependencies between iterations.
#include "sim/schedule_builder.h"

#include <algorithm>

#include "sim/collectives/algorithm_choice.h"
#include "sim/grouping.h"
#include "sim/link_capacities.h"

namespace scalecast {
namespace {

class Builder {
 public:
  Builder(const Workload& w, const Cluster& c, const Strategy& s, Schedule& out)
      : w_(w), c_(c), s_(s), out_(out), links_(link_capacities(c)) {}

  void iteration(int it) {
    const int layers = static_cast<int>(w_.layers.size());
    std::vector<int> forward(layers), backward(layers);
    const int broadcast = s_.aggregation == Aggregation::root_reduce ? root_broadcast(it) : -1;
    for (int l = 0; l < layers; ++l) {
      Task& t = add(TaskKind::forward, "fwd " + w_.layers[l].name, it);
      t.layer = l;
      t.duration_s = w_.layers[l].forward_s + update_share(l);
      link(t, last_compute_);
      link(t, broadcast);
      if (it > 0) link_previous_update(t, l);
      last_compute_ = forward[l] = t.id;
    }
    for (int l = layers - 1; l >= 0; --l) {
      Task& t = add(TaskKind::backward, "bwd " + w_.layers[l].name, it);
      t.layer = l;
      t.duration_s = w_.layers[l].backward_s;
      link(t, last_compute_);
      last_compute_ = backward[l] = t.id;
    }
    final_comm_.assign(layers, {});
    std::vector<int> finals;
    if (s_.aggregation == Aggregation::root_reduce) {
      finals.push_back(root_reduce(it));
    } else {
      for (const Message& m : messages_) {
        const int release = m.release_layer >= 0 ? m.release_layer : m.first_layer;
        const int after = s_.timing == Timing::after_backward ? last_compute_ : backward[release];
        const int done = communicate(m, it, after);
        finals.push_back(done);
        for (int l = m.first_layer; l <= m.last_layer; ++l) final_comm_[l].push_back(done);
      }
    }
    if (!s_.overlap_next_forward) {
      Task& opt = add(TaskKind::optimizer, "optimizer", it);
      opt.duration_s = w_.optimizer_s;
      link(opt, last_compute_);
      for (int f : finals) link(opt, f);
      last_update_ = last_compute_ = opt.id;
    }
  }

  void prepare() {
    if (s_.aggregation == Aggregation::root_reduce) return;
    const auto cost = collectives::fit_alpha_beta(links_, s_.algorithm);
    messages_ = partition_messages(group_gradients(w_, s_, cost), s_.partition_bytes);
    servers_ = c_.ps.count(c_.nodes, c_.gpus());
  }

 private:
  Task& add(TaskKind kind, std::string name, int it) {
    Task t;
    t.id = static_cast<int>(out_.tasks.size());
    t.kind = kind;
    t.name = std::move(name);
    t.iteration = it;
    out_.tasks.push_back(std::move(t));
    return out_.tasks.back();
  }

  static void link(Task& t, int dep) {
    if (dep >= 0) t.deps.push_back(dep);
  }

  // With per-layer updates (ByteScheduler), each layer's optimizer work runs before its forward.
  double update_share(int l) const {
    if (!s_.overlap_next_forward || w_.grad_bytes() == 0) return 0;
    return w_.optimizer_s * static_cast<double>(w_.layers[l].grad_bytes()) /
           static_cast<double>(w_.grad_bytes());
  }

  void link_previous_update(Task& t, int l) {
    if (!s_.overlap_next_forward) {
      if (l == 0) link(t, last_update_);
      return;
    }
    for (int dep : final_comm_[l]) link(t, dep);
  }

  Task& comm(CommOp op, const Message& m, int it, const std::string& name) {
    Task& t = add(TaskKind::comm, name, it);
    t.op = op;
    t.bytes = m.bytes;
    t.first_layer = m.first_layer;
    t.last_layer = m.last_layer;
    t.tensors = m.tensors;
    t.priority = s_.priority ? m.first_layer : message_counter_;
    return t;
  }

  // Returns the task whose end makes the message's sum available on every GPU.
  int communicate(const Message& m, int it, int after) {
    const std::string n = "#" + std::to_string(message_counter_);
    int done = -1;
    if (s_.aggregation == Aggregation::allreduce) {
      if (c_.gpus() > 1) {
        Task& t = comm(CommOp::allreduce, m, it, "allreduce " + n);
        t.algorithm = &collectives::choose_allreduce(links_, s_.algorithm, m.bytes);
        t.delay_s = m.delay_s;
        link(t, after);
        done = t.id;
      }
    } else {
      const int server = partition_counter_++ % servers_;
      Task& push = comm(CommOp::push, m, it, "push " + n);
      push.server = server;
      push.delay_s = m.delay_s;
      link(push, after);
      const int push_id = push.id;
      Task& pull = comm(CommOp::pull, m, it, "pull " + n);
      pull.server = server;
      link(pull, push_id);
      done = pull.id;
    }
    ++message_counter_;
    return done;
  }

  int root_broadcast(int it) {
    if (c_.gpus() <= 1) return -1;
    Message all{static_cast<double>(w_.grad_bytes()), 0, static_cast<int>(w_.layers.size()) - 1,
                static_cast<int>(w_.grad_tensor_count()), 0};
    Task& t = comm(CommOp::broadcast, all, it, "broadcast parameters");
    link(t, last_update_);
    return t.id;
  }

  int root_reduce(int it) {
    if (c_.gpus() <= 1) return -1;
    Message all{static_cast<double>(w_.grad_bytes()), 0, static_cast<int>(w_.layers.size()) - 1,
                static_cast<int>(w_.grad_tensor_count()), 0};
    Task& t = comm(CommOp::reduce, all, it, "reduce gradients");
    link(t, last_compute_);
    return t.id;
  }

  const Workload& w_;
  const Cluster& c_;
  const Strategy& s_;
  Schedule& out_;
  LinkCapacities links_;
  std::vector<Message> messages_;
  std::vector<std::vector<int>> final_comm_;  // per layer: tasks completing its update
  int servers_ = 1;
  int last_compute_ = -1;
  int last_update_ = -1;
  int message_counter_ = 0;
  int partition_counter_ = 0;
};

}  // namespace

Schedule build_schedule(const Workload& workload, const Cluster& cluster, const Strategy& strategy,
                        int iterations, const std::string& scenario_name) {
  Schedule out;
  out.scenario = scenario_name;
  out.model = workload.model;
  out.sample_unit = workload.sample_unit;
  out.batch_per_gpu = workload.batch_per_gpu;
  out.cluster = cluster;
  out.strategy = strategy;
  out.iterations = iterations;
  Builder builder(workload, cluster, strategy, out);
  builder.prepare();
  for (int it = 0; it < iterations; ++it) builder.iteration(it);
  return out;
}

}  // namespace scalecast
