// Tensor parallelism by layer kind. Matrix products (linear, attention's products), the token
// embedding and the head's loss split their work and parameters t ways (column- and row-parallel
// linears, heads split, vocabulary-parallel embedding and cross-entropy), as do the elementwise
// layers between a column- and a row-parallel linear (their tensors are split too). Layers on the
// whole hidden state (norms, residual adds, hidden dropout) run on every GPU of the group, or on
// 1/t of the sequence each with sequence parallelism. Each residual add closes a block half: its
// row-parallel output is all-reduced in the group in the forward, and the input gradient of the
// half's column-parallel linear in the backward (with sequence parallelism an all-gather and a
// reduce-scatter instead, the same bytes). Source: Shoeybi et al., Megatron-LM (2019), section 3;
// Korthikanti et al. (2023), section 4.2.
#include "sim/schedules/sharding/tensor_parallel.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "sim/io/input_error.h"
#include "sim/network/nccl/nccl_collective.h"
#include "sim/collectives/collective_ops.h"
#include "sim/network/link_capacities.h"
#include "sim/types/wrap_units.h"

namespace scalecast {
namespace {

bool splits(const Layer& l, double hidden) {
  if (l.kind == "linear" || l.kind == "attention" || l.kind == "embedding" || l.kind == "cross_entropy") return true;
  return static_cast<double>(l.output_elements) != hidden;
}

}  // namespace

double tensor_parallel_activation_share(int t, bool sequence_parallel) {
  if (t <= 1) return 1;
  return sequence_parallel ? 1.0 / t : (10.0 + 24.0 / t) / 34.0;
}

TensorParallelRun tensor_parallel_run(const Workload& w, const Cluster& sized, const Strategy& s, int activation_bytes) {
  const int t = s.tensor_parallel;
  if (w.layers.empty() || w.layers.front().kind != "embedding" || w.layers.front().output_elements <= 0)
    throw InputError("strategy.tensor_parallel: " + w.model +
                     " is not a transformer of the zoo (its first layer a token embedding)");
  if (sized.gpus_per_node % t != 0)
    throw InputError("strategy.tensor_parallel: " + std::to_string(t) + " GPUs do not divide the run's " +
                     std::to_string(sized.gpus_per_node) + " GPUs of a node");
  const double hidden = static_cast<double>(w.layers.front().output_elements);
  // The group's collectives: its t GPUs of one node, as NCCL's model (or the ring) times them.
  Cluster group = sized;
  group.nodes = 1;
  group.gpus_per_node = t;
  const LinkCapacities links = link_capacities(group, s);
  const double bytes = hidden * w.batch_per_gpu * activation_bytes;
  const auto op_s = [&](collectives::CollectiveOp op, double size) {
    return collectives::collective_op_s(links, op, size, s.algorithm);
  };
  const double exchange_s = s.sequence_parallel
                                ? op_s(collectives::CollectiveOp::all_gather, bytes) +
                                      op_s(collectives::CollectiveOp::reduce_scatter, bytes)
                                : op_s(collectives::CollectiveOp::all_reduce, bytes);
  TensorParallelRun run{w, sized};
  for (Layer& l : run.workload.layers) {
    if (splits(l, hidden) || s.sequence_parallel) {
      l.forward_s /= t;
      l.backward_s /= t;
      l.forward_flops /= t;
      l.forward_memory_bytes /= t;
      l.output_elements /= t;
    }
    if (l.kind == "linear" || l.kind == "embedding")
      for (GradTensor& g : l.grads) {
        g.elements = std::max<int64_t>(1, g.elements / t);
        g.bytes = std::max<int64_t>(1, g.bytes / t);
      }
    if (l.kind == "add" && !block_of(l.name).empty()) {
      l.forward_s += exchange_s;
      l.backward_s += exchange_s;
    }
  }
  run.workload.optimizer_s /= t;
  // The data-parallel replicas of a node share its NICs: each gets its share of them.
  Cluster& dp = run.cluster;
  dp.gpus_per_node = sized.gpus_per_node / t;
  dp.node_gpus = (sized.node_gpus > 0 ? sized.node_gpus : sized.gpus_per_node) / t;
  const int nics = std::max(1, sized.nics_used());
  dp.nics_per_node = std::max(1, nics / t);
  if (nics < t) dp.nic_bandwidth = sized.nic_bandwidth * nics / t;
  return run;
}

}  // namespace scalecast
