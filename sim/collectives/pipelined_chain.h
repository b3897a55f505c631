// NCCL's reduce and broadcast (DataParallel's gradient reduce to GPU 0 and its parameter
// broadcast from it): a chain through the ranks that moves the message in fixed-size chunks.
#pragma once

#include "sim/collectives/transfers.h"
#include "sim/network/link_capacities.h"

namespace scalecast::collectives {

// Chunks a message of `bytes` moves in through a pipeline (NCCL's chain and tree): NCCL's Simple
// protocol steps through a 4 MiB buffer in 8 slots (NCCL_BUFFSIZE, NCCL_STEPS), one slot per
// chunk, so 512 KiB chunks; at most 64, to bound the replay's flows (a larger message takes
// larger chunks).
int chain_chunks(double bytes);

// Seconds of a chain through all GPUs of the cluster, numbered node by node, alone on it: each
// chunk crosses every hop in turn, hops work at once on consecutive chunks, so the time is the
// sum of the hop times of one chunk plus (chunks - 1) times the slowest hop.
double pipelined_chain_s(const LinkCapacities& links, double bytes);

// Its transfers: towards rank 0 (reduce) or away from it (broadcast); in step k, hop h moves
// chunk k - h.
Expansion pipelined_chain(int ranks, double bytes, bool towards_first);

}  // namespace scalecast::collectives
