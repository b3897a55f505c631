// NCCL's cost model (src/graph/tuning.cc ncclTopoTuneModel and ncclTopoGetAlgoTime, v2.27.7-1):
// the bandwidth and latency of every algorithm and protocol for a function on a system, the
// time it estimates for a size, and the choice it makes (the lowest estimate).
#pragma once

#include <optional>
#include <vector>

#include "sim/network/nccl/nccl_system.h"

namespace scalecast::collectives::nccl {

struct Estimate {
  Algo algo = Algo::ring;
  Proto proto = Proto::simple;
  double latency_us = 0;   // with the size's corrections (the ring's plateau)
  double bandwidth = 0;    // algorithm bandwidth, GB/s (user bytes / time), the tree's correction in
  double time_us = 0;      // latency + bytes / bandwidth
  int channels = 1;        // of the graph the algorithm runs on
};

// How the network's latency enters: as NCCL's tuning takes it (the plugin's reported latency,
// added twice on Simple for the flush), or as the transfer meets it (the physical latency once).
enum class LatencyView { tuning, physical };

// Every (algorithm, protocol) NCCL would consider for `func` on `bytes` (nccl-tests' size: the
// whole buffer for all-gather and reduce-scatter), fastest first, ties to NCCL's order.
std::vector<Estimate> estimates(const NcclSystem& s, const Graphs& g, const Enabled& enabled, Func func, double bytes,
                                LatencyView view = LatencyView::tuning);
// NCCL's tuning table entry (ncclTopoTuneModel) for `(algo, proto)`: its latency and algorithm
// bandwidth before any size's corrections, time_us 0; nullopt when NCCL would not run it there.
// Which algorithms and protocols run follows the system's NCCL version in both views; the
// formula's per-release factors only the tuning view (what NCCL picks by), the physical view
// keeps the newest.
std::optional<Estimate> tuned(const NcclSystem& s, const Graphs& g, Func func, Algo algo, Proto proto, LatencyView view);
// NCCL's latency model by hop (tuning.cc:329-378), as tuned() adds it up: the algorithm's base
// latency, a hop inside a node, a hop across the network with the network's latency (the physical
// latency once, or as the tuning takes it), and the least a ring's step inside a node takes once
// nodes are crossed (the network's per-step overhead, from 2.18). What a replay of the
// algorithm's transfers pays.
struct HopLatencies {
  double base_us = 0;
  double intra_us = 0;
  double inter_us = 0;
  double ring_step_floor_us = 0;
};
HopLatencies hop_latencies(const NcclSystem& s, Algo algo, Proto proto, LatencyView view);
// A table entry at `bytes` (ncclTopoGetAlgoTime): the tree's correction and the ring's plateau.
Estimate at_size(Estimate tuned, const NcclSystem& s, const Graphs& g, Func func, double bytes, LatencyView view);
// The one `(algo, proto)` estimated with `view`; nullopt when NCCL would not run it there.
std::optional<Estimate> estimate(const NcclSystem& s, const Graphs& g, Func func, double bytes, Algo algo, Proto proto,
                                 LatencyView view);

}  // namespace scalecast::collectives::nccl
