// A communication strategy as composable knobs: when a gradient may be sent, how tensors are
// grouped, partitioned and prioritised, and how they are aggregated. Methods are presets.
#pragma once

#include <string>
#include <vector>

#include "sim/types/nccl_settings.h"

namespace scalecast {

enum class Timing { after_backward, as_ready };  // wait for the whole backward, or send at once
enum class Grouping {
  per_tensor,  // one message per gradient tensor (WFBP)
  bucket,      // fixed-size buckets filled in backward order (PyTorch DDP)
  fusion,      // a fusion buffer flushed when full or every cycle (Horovod)
  mgwfbp,      // merged-gradient WFBP: the optimal merge under t = a + b * bytes (Shi et al.)
  single,      // everything in one buffer (BSP)
  unit,        // one message per wrapped unit: a transformer block, or a run of layers outside
               // the blocks (FSDP's auto-wrap policy)
};
// Sharded data parallel (ZeRO: Rajbhandari et al., SC'20; PyTorch FSDP: Zhao et al., VLDB'23):
// which of the model's state each GPU keeps a 1/N shard of, the rest of it whole.
enum class Sharding {
  none,        // every GPU holds everything (DDP)
  optimizer,   // ZeRO-1: optimizer state; gradients all-reduced, parameters all-gathered after
               // the step
  gradients,   // ZeRO-2: and gradients, reduce-scattered as the backward makes them
  parameters,  // ZeRO-3, FSDP: and parameters, each unit all-gathered before it runs
};
enum class Aggregation {
  allreduce,         // collective all-reduce among all GPUs
  parameter_server,  // push to sharded servers, pull back (BytePS)
  root_reduce,       // single-node DataParallel: reduce to GPU 0, broadcast from it
};
// The library that runs an all-reduce's transfers between machines: NCCL (Horovod, DDP, cupy),
// or Gloo (torch.distributed's CPU backend, scalecast's executor). Parameter servers talk through
// ps-lite (BytePS) whatever this says. Over kernel TCP it decides how many sockets, each copied by
// one core, a transfer spreads over (sim/network/link_capacities.cpp).
enum class CollectiveLibrary { nccl, gloo };

struct Strategy {
  std::string method;                 // preset name
  Timing timing = Timing::as_ready;
  Grouping grouping = Grouping::per_tensor;
  double bucket_bytes = 25e6;         // bucket: size; fusion: buffer size
  double first_bucket_bytes = 1e6;    // bucket: the first bucket is smaller (DDP)
  double cycle_s = 5e-3;              // fusion: cycle time
  double partition_bytes = 0;         // split messages into partitions of at most this (0: no)
  double credit_bytes = 0;            // bytes in flight at most (0: unlimited)
  // Sizes a system states in parameters, not bytes (ByteScheduler): the two above follow from
  // these at a gradient precision (size_by_precision; 0: the byte sizes stand).
  double partition_parameters = 0;
  double credit_parameters = 0;
  bool priority = false;              // send the layers the next forward needs first
  bool overlap_next_forward = false;  // a layer's next forward waits only for its own update
  Aggregation aggregation = Aggregation::allreduce;
  // A registered all-reduce algorithm, or "auto": the library's own (NCCL's choice per size, by
  // the model `scalecast collective` uses; Gloo's ring)
  std::string algorithm = "auto";
  double call_overhead_s = 0;         // framework cost per message (negotiation, hooks)
  double mgwfbp_min_elements = 0;     // mgwfbp: a smaller message always merges with the next
  bool node_local_reduce = false;     // PS: reduce inside the node before pushing (BytePS)
  // PS: a worker asks for each pull with a request sent over its one connection to the server,
  // behind the pushes queued there, and the server answers over one connection back (ps-lite)
  bool pull_requests = false;
  // PS: a partition's server is BytePS's hash of its key (sim/schedules/ps_keys.h); else round robin
  bool key_hash = false;
  // The framework copies each collective's tensor from the GPU to pinned host memory before the
  // collective and back after it, over the GPU's PCIe link (Gloo on CUDA tensors)
  bool host_staged = false;
  CollectiveLibrary library = CollectiveLibrary::nccl;
  // NCCL's environment (the scenario's strategy.nccl_*): its channels decide the SMs NCCL holds
  // and, over kernel TCP, the sockets and cores that copy a transfer.
  collectives::nccl::NcclSettings nccl;
  Sharding sharding = Sharding::none;
  // parameters: gather a unit again before its backward (FULL_SHARD, ZeRO-3), or keep what its
  // forward gathered until its backward ends (SHARD_GRAD_OP)
  bool reshard_after_forward = true;
  // Shards span the GPUs of one node, replicated across nodes (FSDP's HYBRID_SHARD): a unit's
  // gradients are reduce-scattered inside the node, then all-reduced across nodes, GPU by GPU.
  bool shard_in_node = false;
  // parameters: all-gathers whose units may be gathered at once (FSDP's limit_all_gathers: the
  // one running and the one prefetched)
  int gathers_in_flight = 2;
  // PyTorch FSDP's flat parameters (torch/distributed/fsdp/_runtime_utils.py): a unit's
  // parameters are gathered at the width the model holds them, and its gradient, assembled into
  // one flat tensor, is cast to the reduce width and pre-divided on the GPU before its
  // reduce-scatter (sim/schedules/sharding/sharded_schedule.cpp, flat_gradient_s).
  bool flat_parameters = false;
  // DeepSpeed sizes its buckets in parameters (reduce_bucket_size, allgather_bucket_size): the
  // bucket size follows at the gradient precision (size_by_precision; 0: bucket_bytes stands).
  double bucket_parameters = 0;
  // Megatron-LM tensor parallelism inside a node (sim/schedules/sharding/tensor_parallel.h): GPUs that split
  // each layer (1: none), and sequence parallelism for the layers on the whole hidden state.
  int tensor_parallel = 1;
  bool sequence_parallel = false;
};

struct PresetInfo {
  std::string name;
  std::string description;
};

std::vector<PresetInfo> list_presets();
bool has_preset(const std::string& name);
// Sets the byte sizes stated in parameters for gradients of `element_bytes` (4: fp32, 2: fp16).
void size_by_precision(Strategy& s, int element_bytes);
// The preset, its sizes in bytes for fp32 gradients (strategy_for() sizes it for a scenario's
// model). Throws an InputError naming the known presets.
Strategy make_preset(const std::string& name);

std::string to_string(Grouping g);
std::string to_string(Timing t);
std::string to_string(Aggregation a);
std::string to_string(Sharding s);
// "none", "optimizer", "gradients" or "parameters"; throws an InputError otherwise.
Sharding parse_sharding(const std::string& name);
// The GPUs one shard group spans among `gpus` data-parallel replicas (under tensor parallelism,
// one per tensor-parallel group): all of them, or those of one node (shard_in_node).
int shard_group_gpus(const Strategy& strategy, int gpus, int gpus_per_node);
std::string to_string(CollectiveLibrary l);
// "nccl" or "gloo"; throws an InputError otherwise.
CollectiveLibrary parse_collective_library(const std::string& name);

}  // namespace scalecast
