// The collective operations nccl-tests measures (all-reduce, all-gather, reduce-scatter,
// broadcast, send/recv, all-to-all) as one closed-form time each on a cluster, with the sizes and
// bus-bandwidth factors nccl-tests uses, so a measured table and a prediction line up.
#pragma once

#include <string>

#include "sim/network/link_capacities.h"
#include "sim/types/collective_op.h"

namespace scalecast::collectives {

// Seconds of one operation of `bytes` (nccl-tests' "size": one rank's vector for all-reduce,
// broadcast and send/recv; the whole gathered or scattered array for all-gather, reduce-scatter
// and all-to-all) among all GPUs of the cluster, alone on it. With "auto" where the run has
// NCCL's model, that model times every operation, as `scalecast collective` does. Otherwise the
// closed forms with the transport's per-call overhead: `algorithm` chooses the all-reduce (a
// registered name or "auto"); the others run as NCCL's ring (all-gather, reduce-scatter),
// pipelined chain (broadcast, reduce), one ring step (send/recv: every rank to the next) and
// direct exchange (all-to-all).
double collective_op_s(const LinkCapacities& links, CollectiveOp op, double bytes, const std::string& algorithm);

}  // namespace scalecast::collectives
