// Placing a run's GPUs on nodes and applying a scenario's strategy settings to a method's preset.
#include "sim/scenario/run_setup.h"

#include <stdexcept>

#include "sim/collectives/algorithm_choice.h"
#include "sim/io/input_error.h"
#include "sim/io/ranges.h"

namespace scalecast {

int nodes_for(const Cluster& cluster, int gpus) {
  const int per_node = cluster.gpus_per_node;
  if (gpus <= 0 || gpus > ranges::kMaxGpus)
    throw InputError("cannot place " + std::to_string(gpus) + " GPUs: expected a GPU count in [1, " +
                     std::to_string(ranges::kMaxGpus) + "]");
  if (const int nodes = cluster.fixed_nodes; nodes > 0) {
    if (gpus % nodes != 0 || gpus / nodes > per_node)
      throw InputError("cannot place " + std::to_string(gpus) + " GPUs on " + std::to_string(nodes) +
                       " nodes of " + std::to_string(per_node) + " GPUs: expected a multiple of " +
                       std::to_string(nodes) + " up to " + std::to_string(nodes * per_node));
    return nodes;
  }
  if (per_node <= 0 || (gpus > per_node && gpus % per_node != 0))
    throw InputError("cannot place " + std::to_string(gpus) + " GPUs on nodes of " +
                     std::to_string(per_node) + " GPUs: expected a multiple of " +
                     "gpus_per_node or fewer GPUs than one node");
  return gpus <= per_node ? 1 : gpus / per_node;
}

Cluster sized_for(const Cluster& cluster, int gpus) {
  Cluster c = cluster;
  c.nodes = nodes_for(cluster, gpus);
  if (c.node_gpus <= 0) c.node_gpus = c.gpus_per_node;
  c.gpus_per_node = gpus / c.nodes;
  return c;
}

Strategy strategy_for(const Scenario& scenario, const std::string& method) {
  Strategy s = make_preset(method);
  size_by_precision(s, scenario.model.options.bytes_per_element);
  const StrategyOverrides& o = scenario.strategy;
  if (!o.allreduce.empty() && s.aggregation == Aggregation::allreduce)
    s.algorithm = o.allreduce;
  if (!o.library.empty()) s.library = parse_collective_library(o.library);
  if (const auto* a = collectives::find_allreduce(s.algorithm);
      a && a->library_choice && s.library != CollectiveLibrary::nccl)
    throw InputError("strategy.allreduce: '" + s.algorithm + "' is NCCL's own choice, and " + method +
                     " runs its collectives with " + to_string(s.library) +
                     " (strategy.library): name one of its algorithms or auto");
  if (o.bucket_bytes > 0) s.bucket_bytes = o.bucket_bytes;
  if (o.first_bucket_bytes > 0) s.first_bucket_bytes = o.first_bucket_bytes;
  if (o.cycle_s > 0) s.cycle_s = o.cycle_s;
  if (o.partition_bytes > 0) s.partition_bytes = o.partition_bytes;
  if (o.credit_bytes > 0) s.credit_bytes = o.credit_bytes;
  if (o.call_overhead_s >= 0) s.call_overhead_s = o.call_overhead_s;
  s.nccl = o.nccl;
  s.tensor_parallel = o.tensor_parallel;
  s.sequence_parallel = o.sequence_parallel;
  if (s.tensor_parallel > 1 && s.aggregation != Aggregation::allreduce)
    throw InputError("strategy.tensor_parallel: " + method + " aggregates through " + to_string(s.aggregation) +
                     "; tensor parallelism runs with the all-reduce and sharded methods");
  switch_off(scenario.switched_off, s);
  return s;
}

}  // namespace scalecast
