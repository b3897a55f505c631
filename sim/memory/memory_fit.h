// Memory per GPU of data-parallel training: weights, gradients, optimizer state, the activations
// autograd keeps for the backward pass and the backward pass's temporaries, cuBLAS/cuDNN
// workspaces, the CUDA context and the caching allocator's overhead, as a central estimate with an
// interval, against the GPU's memory (mechanisms and sources in docs/MODEL.md, "Memory per GPU").
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "sim/scenario/scenario.h"
#include "sim/types/strategy.h"
#include "sim/types/workload.h"

namespace scalecast {

// The interval's sources, each a documented band (docs/MODEL.md).
struct MemoryBands {
  double activation_share = 0.15;   // +- on activations and temporaries: mechanisms not modelled
  double cache_central = 0.05;      // caching allocator's reserve over the allocated peak
  double cache_high = 0.20;
  double context_low = 0.3 * 1024 * 1024 * 1024;  // CUDA context + PyTorch's kernels, lazy loading
  double context_central = 0.5 * 1024 * 1024 * 1024;
  double context_high = 1.3 * 1024 * 1024 * 1024;  // eager module loading (HF's V100 page: 1343 MB)
};

// Sharded data parallel's division of the model state (sim/types/strategy.h): what each GPU keeps 1/gpus
// of, and which parameters it holds whole at the peak.
struct StateSharding {
  Sharding sharding = Sharding::none;
  int gpus = 1;                      // GPUs one shard group spans
  bool reshard_after_forward = true;
  int gathers_in_flight = 2;
  double bucket_bytes = 0;           // ZeRO-1/2: the gradient bucket it reduces from
  int tensor_parallel = 1;           // GPUs that split each layer's parameters and activations
  bool sequence_parallel = false;
};
// The strategy's sharding on a sized cluster.
StateSharding state_sharding(const Strategy& strategy, const Cluster& sized);

struct MemoryFit {
  double weights_bytes = 0;      // the model at the training precision (fp32 under autocast)
  double gradients_bytes = 0;    // as the backward pass writes them
  double optimizer_bytes = 0;    // momentum / Adam moments in fp32, fp32 master weights in half
  double weight_copies_bytes = 0;  // autocast's cached fp16 casts of conv/linear weights
  double activations_bytes = 0;  // what autograd keeps for the backward pass, for the batch
  double temporaries_bytes = 0;  // gradients of the largest activations live at the peak
  double workspace_bytes = 0;    // cuBLAS (and cuDNN for convolutions) workspaces
  // Sharded data parallel: parameters held whole at the peak (the units gathered at once, or
  // every unit from its forward to its backward) and the unsharded gradients of one unit or
  // bucket before they are reduce-scattered.
  double gathered_bytes = 0;
  int shard_gpus = 1;            // weights, gradients and optimizer state above are one shard
  int tensor_parallel = 1;       // and of a layer split this many ways
  bool activations_known = true; // false: a profile of a model outside the zoo (not counted)
  bool convolutions = false;     // cuDNN's workspace band applies
  int batch = 1;
  MemoryBands bands;
  double available_bytes = 0;    // the GPU's memory
  std::string gpu;               // catalog key

  double allocated_bytes() const;  // the peak of torch.cuda.max_memory_allocated, estimated
  double needed_bytes() const;     // central: allocated, the allocator's reserve, the context
  double low_bytes() const;        // the interval: no reserve, lean context, activations -15%
  double high_bytes() const;
  // Refused only where even the interval's low end is over the GPU's memory.
  bool fits() const { return low_bytes() <= available_bytes; }
  // The parts, largest first: {"activations", bytes}, {"optimizer state", bytes}, ...
  std::vector<std::pair<std::string, double>> parts() const;
};

MemoryFit memory_fit(const Scenario& scenario, const Workload& workload, const StateSharding& sharding = {});
// The same from memory_fit's estimate without a sharding (`whole`), which does not depend on the
// method or the GPU count: what predict and recommend work out once per model, then shard for
// each method and GPU count.
MemoryFit sharded_fit(MemoryFit whole, const Workload& workload, const StateSharding& sharding);

// "11.2 GiB (9.9-14.6) of 80 GiB per GPU (activations 5.5 GiB, optimizer state 4.01 GiB, ...)".
std::string memory_summary(const MemoryFit& fit);
// Empty when the central estimate and the interval's high end fit; else the margin in words.
std::string memory_warning(const MemoryFit& fit);
// What would make a configuration fit: the largest batch, and fp16, fused attention, activation
// checkpointing or sharding the model state (FSDP over the run's GPUs) where they apply and suffice.
// With a sharding, also a sharded method or more GPUs where either suffices.
std::string memory_knobs(const Scenario& scenario, const Workload& workload, const StateSharding& sharding = {});

}  // namespace scalecast
