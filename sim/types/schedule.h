// The schedule: the one backend-independent description of training iterations, a DAG of
// compute tasks (alike on every GPU) and communication tasks (messages among all GPUs).
#pragma once

#include <string>
#include <vector>

#include <boost/container/small_vector.hpp>

#include "sim/types/cluster.h"
#include "sim/types/strategy.h"

namespace scalecast {

namespace collectives {
struct AllreduceAlgorithm;
}

enum class TaskKind { forward, backward, optimizer, comm };
enum class CommOp {
  allreduce,  // every GPU contributes and receives the sum
  push,       // workers send a partition to its server, which sums it
  pull,       // workers fetch the summed partition from its server
  reduce,     // every GPU sends to GPU 0, which sums (DataParallel)
  broadcast,  // GPU 0 sends to every GPU (DataParallel)
  all_gather,      // every GPU contributes its shard and receives the whole (sharded parameters)
  reduce_scatter,  // every GPU contributes the whole and receives its shard of the sum (gradients)
};
// The GPUs one collective runs among: all of them, those of each node (every node runs its own
// at once), or those with the same local index on every node (a rail: every rail at once).
enum class CommGroup { all, node, rail };

// Most tasks wait for one or two others: those are kept inline, without an allocation.
using TaskDeps = boost::container::small_vector<int, 2>;

struct Task {
  int id = 0;                  // index in Schedule::tasks
  TaskKind kind = TaskKind::forward;
  int name = -1;               // its name's index in Schedule::names ("fwd conv1", "allreduce #12")
  int iteration = 0;
  int layer = -1;              // compute: the layer; comm: -1
  double duration_s = 0;       // compute: time on every GPU
  CommOp op = CommOp::allreduce;
  // all-reduce: the registered algorithm that runs it (never "auto": resolved when built)
  const collectives::AllreduceAlgorithm* algorithm = nullptr;
  double bytes = 0;            // comm: message size (each GPU's share for push/pull; the whole
                               // gathered or scattered array for all-gather, reduce-scatter)
  int first_layer = -1;        // comm: lowest layer index whose gradients it carries
  int last_layer = -1;         // comm: highest layer index
  int tensors = 0;             // comm: gradient tensors it carries (all or a partition of)
  int priority = 0;            // comm: lower goes first where the strategy orders by priority
  int server = -1;             // push/pull: the parameter server
  CommGroup group = CommGroup::all;  // collectives: the GPUs it runs among
  TaskDeps deps;               // ids of tasks that must finish first
  double delay_s = 0;          // comm: may start no earlier than this after its deps finish
                               // (a fusion buffer waiting for its cycle tick)
};

struct Schedule {
  std::string scenario;
  std::string model;
  std::string sample_unit = "samples";
  int batch_per_gpu = 1;
  int accumulation_steps = 1;  // micro-batches per iteration; the last one's backward syncs
  Cluster cluster;             // sized for this run: nodes * gpus_per_node GPUs
  Strategy strategy;
  int iterations = 1;
  std::vector<Task> tasks;
  // Task names, each kept once: every iteration's tasks share their layer's or message's name.
  std::vector<std::string> names;

  int gpus() const { return cluster.gpus(); }
  // The task's name ("task 12" for one made without a name).
  std::string name_of(const Task& task) const;
  // Adds a name and returns its index for Task::name.
  int add_name(std::string name);
};

std::string to_string(TaskKind k);
std::string to_string(CommOp op);
std::string to_string(CommGroup group);
TaskKind parse_task_kind(const std::string& text);
CommOp parse_comm_op(const std::string& text);
CommGroup parse_comm_group(const std::string& text);

}  // namespace scalecast
