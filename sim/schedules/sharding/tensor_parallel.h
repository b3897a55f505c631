// Megatron-LM tensor parallelism inside a node: what one GPU of a tensor-parallel group computes
// (its layers split t ways, the group's collectives in their time) and the cluster its
// data-parallel collectives run on (the GPUs of the same tensor-parallel rank).
#pragma once

#include "sim/types/cluster.h"
#include "sim/types/strategy.h"
#include "sim/types/workload.h"

namespace scalecast {

struct TensorParallelRun {
  Workload workload;  // one GPU's share of each layer, with the group's collectives
  Cluster cluster;    // the data-parallel replicas: gpus_per_node / t per node, their NICs' share
};

// For strategy.tensor_parallel > 1 on a sized cluster whose nodes it divides. `activation_bytes`:
// bytes per activation element (2 in fp16/bf16/fp8, 4 in fp32). Throws an InputError for
// a model that is not a transformer of the zoo (its first layer a token embedding).
TensorParallelRun tensor_parallel_run(const Workload& workload, const Cluster& sized, const Strategy& strategy,
                                      int activation_bytes);

// The share of a transformer's activations one GPU of the group keeps (Korthikanti et al.,
// MLSys 2023, eq. 2-4: 34sbh + 5as^2b per layer; tensor parallel (10 + 24/t)sbh + 5as^2b/t, with
// sequence parallelism all of it / t), for the 34sbh part that fused attention leaves.
double tensor_parallel_activation_share(int tensor_parallel, bool sequence_parallel);

}  // namespace scalecast
