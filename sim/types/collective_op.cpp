// Names and nccl-tests' bus-bandwidth factors of the collective operations, as nccl-tests and
// the schedule spell them.
#include "sim/types/collective_op.h"

#include <stdexcept>

#include "sim/io/input_error.h"

namespace scalecast::collectives {

std::string to_string(CollectiveOp op) {
  switch (op) {
    case CollectiveOp::all_reduce: return "all_reduce";
    case CollectiveOp::all_gather: return "all_gather";
    case CollectiveOp::reduce_scatter: return "reduce_scatter";
    case CollectiveOp::broadcast: return "broadcast";
    case CollectiveOp::reduce: return "reduce";
    case CollectiveOp::sendrecv: return "sendrecv";
    case CollectiveOp::alltoall: return "alltoall";
  }
  return "all_reduce";
}

CollectiveOp parse_collective_op(const std::string& text) {
  for (CollectiveOp op : {CollectiveOp::all_reduce, CollectiveOp::all_gather, CollectiveOp::reduce_scatter,
                          CollectiveOp::broadcast, CollectiveOp::reduce, CollectiveOp::sendrecv, CollectiveOp::alltoall})
    if (text == to_string(op)) return op;
  if (text == "allreduce") return CollectiveOp::all_reduce;
  throw InputError("unknown collective '" + text +
                   "' (known: all_reduce, all_gather, reduce_scatter, broadcast, reduce, sendrecv, alltoall)");
}

double bus_factor(CollectiveOp op, int n) {
  if (n <= 1) return 0;
  switch (op) {
    case CollectiveOp::all_reduce: return 2.0 * (n - 1) / n;
    case CollectiveOp::all_gather:
    case CollectiveOp::reduce_scatter:
    case CollectiveOp::alltoall: return static_cast<double>(n - 1) / n;
    case CollectiveOp::broadcast:
    case CollectiveOp::reduce:
    case CollectiveOp::sendrecv: return 1;
  }
  return 1;
}

}  // namespace scalecast::collectives
