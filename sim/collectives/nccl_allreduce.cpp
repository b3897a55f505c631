// NCCL's own all-reduce: the algorithm, protocol and channels its tuning picks at each size, timed
// by the run's NCCL model (sim/network/nccl/), the one `scalecast collective` uses.
#include <stdexcept>

#include "sim/collectives/allreduce_algorithm.h"
#include "sim/io/input_error.h"
#include "sim/network/nccl/nccl_collective.h"

namespace scalecast::collectives {

extern const AllreduceAlgorithm kRingAllreduce;  // ring.cpp

namespace {

double cost(const LinkCapacities& l, double bytes) {
  if (!l.nccl)
    throw InputError(
        "all-reduce 'nccl' needs NCCL's model of the run: the library nccl (strategy.library) and a GPU of the "
        "catalog (gpu.type)");
  return l.nccl->seconds(CollectiveOp::all_reduce, bytes);
}

}  // namespace

// Without the run's model at hand (the executor's own expansion), NCCL's ring.
extern const AllreduceAlgorithm kNcclAllreduce = {
    "nccl",
    "NCCL's own choice per size: ring, tree, NVLS or NVLS-tree with its protocol and channels, by NCCL's tuning "
    "model (the model of `scalecast collective`)",
    cost, kRingAllreduce.expand, kRingAllreduce.transfers, false, true};

}  // namespace scalecast::collectives
