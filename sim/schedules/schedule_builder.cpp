// Schedule construction: forward and backward tasks per layer, messages from the grouping knob,
// partitions, all-reduce or push/pull tasks, and the dependencies between iterations.
#include "sim/schedules/schedule_builder.h"

#include <algorithm>
#include <array>
#include <string>

#include "sim/collectives/algorithm_choice.h"
#include "sim/schedules/grouping.h"
#include "sim/network/link_capacities.h"
#include "sim/schedules/ps_keys.h"
#include "sim/schedules/sharding/sharded_schedule.h"
#include "sim/schedules/task_appender.h"

namespace scalecast {
namespace {

class Builder : TaskAppender {
 public:
  Builder(const Workload& w, const Cluster& c, const Strategy& s, Schedule& out, bool names)
      : TaskAppender(w, out, names), w_(w), c_(c), s_(s), links_(link_capacities(c, s)) {}

  // What every iteration shares: task names, messages with their algorithm and server, and for
  // each layer the messages carrying its gradients.
  void prepare(int iterations) {
    const int layers = static_cast<int>(w_.layers.size());
    model_grad_bytes_ = static_cast<double>(w_.grad_bytes());
    forward_.assign(layers, -1);
    backward_.assign(layers, -1);
    if (s_.aggregation == Aggregation::root_reduce) {
      root_names_ = {name("broadcast parameters"), name("reduce gradients")};
      out_.tasks.reserve(static_cast<std::size_t>(iterations) * (2 * layers * micro_batches() + 3));
      return;
    }
    const auto cost = collectives::fit_alpha_beta(links_, s_.algorithm);
    const std::vector<Message> grouped = group_gradients(w_, s_, cost);
    messages_ = partition_messages(grouped, s_.partition_bytes);
    const int servers = c_.ps.count(c_.nodes, c_.gpus());
    const std::vector<int> server_of = s_.aggregation == Aggregation::parameter_server && s_.key_hash
                                           ? byteps_servers(w_, grouped, s_.partition_bytes, servers)
                                           : std::vector<int>{};
    const int count = static_cast<int>(messages_.size());
    plans_.resize(messages_.size());
    for (int k = 0; k < count; ++k) {
      MessagePlan& p = plans_[k];
      const std::string n = names_ ? " #" + std::to_string(k) : "";
      if (s_.aggregation == Aggregation::allreduce) {
        p.names = {names_ ? name("allreduce" + n) : -1, -1};
        p.algorithm = &collectives::choose_allreduce(links_, s_.algorithm, messages_[k].bytes);
      } else {
        if (names_) p.names = {name("push" + n), name("pull" + n)};
        // A partition keeps its server (BytePS: by its key's hash).
        p.server = server_of.empty() ? k % std::max(1, servers) : server_of[k];
      }
    }
    // With per-layer updates, each layer's next forward waits for the messages carrying its
    // gradients. Messages carry consecutive layers: count each layer's, then list them in message
    // order. (Only then: a single message's partitions each span every layer, which would make
    // this index partitions x layers long.)
    if (s_.overlap_next_forward) {
      first_message_.assign(layers + 1, 0);
      for (const Message& m : messages_)
        for (int l = m.first_layer; l <= m.last_layer; ++l) ++first_message_[l + 1];
      for (int l = 0; l < layers; ++l) first_message_[l + 1] += first_message_[l];
      layer_messages_.resize(first_message_[layers]);
      std::vector<std::size_t> filled(first_message_.begin(), first_message_.end() - 1);
      for (int k = 0; k < count; ++k)
        for (int l = messages_[k].first_layer; l <= messages_[k].last_layer; ++l) layer_messages_[filled[l]++] = k;
    }
    done_.assign(messages_.size(), -1);
    out_.tasks.reserve(static_cast<std::size_t>(iterations) * (2 * layers * micro_batches() + 2 * messages_.size() + 1));
  }

  // A forward pass of iteration `it` (after DataParallel's broadcast of the parameters); the
  // first of the iteration waits for the previous iteration's update.
  void forward_pass(int it, bool first = true) {
    const int layers = static_cast<int>(w_.layers.size());
    const int broadcast = s_.aggregation == Aggregation::root_reduce ? root_broadcast(it) : -1;
    for (int l = 0; l < layers; ++l) {
      Task& t = add(TaskKind::forward, forward_names_[l], it);
      t.layer = l;
      t.duration_s = w_.layers[l].forward_s + update_share(l);
      link(t, last_compute_);
      link(t, broadcast);
      if (it > 0 && first) link_previous_update(t, l);
      last_compute_ = forward_[l] = t.id;
    }
  }

  // With gradient accumulation the micro-batches before the last accumulate their gradients
  // locally (DDP's no_sync): only the last one's backward sends them.
  void iteration(int it) {
    for (int m = 0; m < micro_batches(); ++m) {
      forward_pass(it, m == 0);
      backward_pass(it);
    }
    int reduce = -1;
    if (s_.aggregation == Aggregation::root_reduce) {
      reduce = root_reduce(it);
    } else {
      for (std::size_t k = 0; k < messages_.size(); ++k) {
        const Message& m = messages_[k];
        const int release = m.release_layer >= 0 ? m.release_layer : m.first_layer;
        const int after = s_.timing == Timing::after_backward ? last_compute_ : backward_[release];
        done_[k] = communicate(k, it, after);
      }
    }
    if (!s_.overlap_next_forward) {
      Task& opt = add(TaskKind::optimizer, optimizer_name_, it);
      opt.duration_s = w_.optimizer_s;
      link(opt, last_compute_);
      link(opt, reduce);
      for (int d : done_) link(opt, d);
      last_update_ = last_compute_ = opt.id;
    }
  }

 private:
  void backward_pass(int it) {
    const int layers = static_cast<int>(w_.layers.size());
    for (int l = layers - 1; l >= 0; --l) {
      Task& t = add(TaskKind::backward, backward_names_[l], it);
      t.layer = l;
      t.duration_s = w_.layers[l].backward_s;
      link(t, last_compute_);
      last_compute_ = backward_[l] = t.id;
    }
  }

  int micro_batches() const { return std::max(1, w_.accumulation_steps); }

  struct MessagePlan {
    std::array<int, 2> names{-1, -1};  // all-reduce, or push and pull
    const collectives::AllreduceAlgorithm* algorithm = nullptr;
    int server = -1;
  };

  // With per-layer updates (ByteScheduler), each layer's optimizer work runs before its forward,
  // in proportion to its gradient bytes.
  double update_share(int l) const {
    if (!s_.overlap_next_forward || model_grad_bytes_ == 0) return 0;
    return w_.optimizer_s * static_cast<double>(w_.layers[l].grad_bytes()) / model_grad_bytes_;
  }

  // A layer's next forward waits for the optimizer, or with per-layer updates for the messages
  // carrying its gradients.
  void link_previous_update(Task& t, int l) {
    if (!s_.overlap_next_forward) {
      if (l == 0) link(t, last_update_);
      return;
    }
    for (std::size_t i = first_message_[l]; i < first_message_[l + 1]; ++i) link(t, done_[layer_messages_[i]]);
  }

  Task& comm(CommOp op, const Message& m, int it, int name) {
    Task& t = add(TaskKind::comm, name, it);
    t.op = op;
    t.bytes = m.bytes;
    t.first_layer = m.first_layer;
    t.last_layer = m.last_layer;
    t.tensors = m.tensors;
    t.priority = s_.priority ? m.first_layer : message_counter_;
    return t;
  }

  // Returns the task whose end makes message k's sum available on every GPU.
  int communicate(std::size_t k, int it, int after) {
    const Message& m = messages_[k];
    const MessagePlan& p = plans_[k];
    int done = -1;
    if (s_.aggregation == Aggregation::allreduce) {
      if (c_.gpus() > 1) {
        Task& t = comm(CommOp::allreduce, m, it, p.names[0]);
        t.algorithm = p.algorithm;
        t.delay_s = m.delay_s;
        link(t, after);
        done = t.id;
      }
    } else {
      Task& push = comm(CommOp::push, m, it, p.names[0]);
      push.server = p.server;
      push.delay_s = m.delay_s;
      link(push, after);
      const int push_id = push.id;
      Task& pull = comm(CommOp::pull, m, it, p.names[1]);
      pull.server = p.server;
      link(pull, push_id);
      done = pull.id;
    }
    ++message_counter_;
    return done;
  }

  Message whole_model() const {
    return {model_grad_bytes_, 0, static_cast<int>(w_.layers.size()) - 1,
            static_cast<int>(w_.grad_tensor_count()), -1, 0};
  }

  int root_broadcast(int it) {
    if (c_.gpus() <= 1) return -1;
    Task& t = comm(CommOp::broadcast, whole_model(), it, root_names_[0]);
    link(t, last_update_);
    return t.id;
  }

  int root_reduce(int it) {
    if (c_.gpus() <= 1) return -1;
    Task& t = comm(CommOp::reduce, whole_model(), it, root_names_[1]);
    link(t, last_compute_);
    return t.id;
  }

  const Workload& w_;
  const Cluster& c_;
  const Strategy& s_;
  LinkCapacities links_;
  std::vector<Message> messages_;
  std::vector<MessagePlan> plans_;
  double model_grad_bytes_ = 0;
  std::array<int, 2> root_names_{-1, -1};  // DataParallel's broadcast and reduce
  // Layer l's gradients travel in messages layer_messages_[first_message_[l] .. first_message_[l + 1]).
  std::vector<std::size_t> first_message_;
  std::vector<int> layer_messages_;
  std::vector<int> forward_, backward_;  // this iteration's task per layer
  std::vector<int> done_;                // per message: the task completing it, latest iteration
  int last_compute_ = -1;
  int last_update_ = -1;
  int message_counter_ = 0;
};

}  // namespace

Schedule build_schedule(const Workload& workload, const Cluster& cluster, const Strategy& strategy,
                        const ScheduleShape& shape, const std::string& scenario_name) {
  Schedule out;
  out.scenario = scenario_name;
  out.model = workload.model;
  out.sample_unit = workload.sample_unit;
  out.batch_per_gpu = workload.batch_per_gpu;
  out.accumulation_steps = workload.accumulation_steps;
  out.cluster = cluster;
  out.strategy = strategy;
  out.iterations = shape.iterations + (shape.next_forward ? 1 : 0);
  if (strategy.sharding != Sharding::none) {
    build_sharded_tasks(workload, cluster, strategy, shape.iterations, shape.next_forward, shape.task_names, out);
    return out;
  }
  Builder builder(workload, cluster, strategy, out, shape.task_names);
  builder.prepare(out.iterations);
  for (int it = 0; it < shape.iterations; ++it) builder.iteration(it);
  if (shape.next_forward) builder.forward_pass(shape.iterations);
  return out;
}

Schedule build_schedule(const Workload& workload, const Cluster& cluster, const Strategy& strategy,
                        int iterations, const std::string& scenario_name) {
  return build_schedule(workload, cluster, strategy, ScheduleShape{iterations}, scenario_name);
}

}  // namespace scalecast
