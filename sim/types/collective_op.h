// The collective operations nccl-tests measures, by name, with the bus-bandwidth factor
// nccl-tests reports them with: a value type both the NCCL model and the closed forms time.
#pragma once

#include <string>

namespace scalecast::collectives {

enum class CollectiveOp { all_reduce, all_gather, reduce_scatter, broadcast, reduce, sendrecv, alltoall };

// nccl-tests' names: all_reduce, all_gather, reduce_scatter, broadcast, reduce, sendrecv, alltoall.
std::string to_string(CollectiveOp op);
// Also accepts the sweep's and the schedule's spellings (allreduce). Throws an InputError.
CollectiveOp parse_collective_op(const std::string& text);

// nccl-tests' bus bandwidth factor over n ranks (doc/PERFORMANCE.md): all-reduce 2(n-1)/n,
// all-gather, reduce-scatter and all-to-all (n-1)/n, broadcast, reduce and send/recv 1.
double bus_factor(CollectiveOp op, int ranks);

}  // namespace scalecast::collectives
