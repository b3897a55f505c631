// Ring all-reduce (Patarasuk and Yuan, JPDC 69(2), 2009; NCCL's ring): reduce-scatter then
// all-gather, 2(p-1) steps that each move bytes/p to the next rank.
#include <algorithm>

#include "sim/collectives/allreduce_algorithm.h"

namespace scalecast::collectives {
namespace {

// A flat ring over all GPUs, numbered node by node: of its 2(p-1) steps, 2(n-1) cross the network
// and pay its latency, the others the fabric's (NCCL's tuner, src/graph/tuning.cc, counts
// latencies the same way); every step moves bytes/p at the pace of the slowest edge, the
// network once nodes are crossed.
double cost(const LinkCapacities& l, double bytes) {
  const int p = l.gpus(), n = l.nodes;
  if (p <= 1) return 0;
  const LinkClass f = l.fabric_link();
  if (n <= 1) return 2.0 * (p - 1) * (f.latency + Bytes(bytes) / (f.bandwidth * p)).s();
  const Rate bandwidth = std::min(l.spine_share(bytes / p), f.bandwidth);
  const Seconds latency = l.network_latency * (2.0 * (n - 1)) + f.latency * (2.0 * (p - n));
  return (latency + Bytes(2.0 * (p - 1) * bytes) / (bandwidth * p)).s();
}

Expansion expand(int nodes, int gpus_per_node, double bytes) {
  const int p = nodes * gpus_per_node;
  Expansion e;
  if (p <= 1) return e;
  for (int step = 0; step < 2 * (p - 1); ++step) {
    e.steps.emplace_back();
    for (int r = 0; r < p; ++r) e.steps.back().push_back({r, (r + 1) % p, bytes / p});
  }
  return e;
}

double transfers(int nodes, int gpus_per_node, double) {
  const double p = static_cast<double>(nodes) * gpus_per_node;
  return p <= 1 ? 0 : 2 * (p - 1) * p;
}

}  // namespace

extern const AllreduceAlgorithm kRingAllreduce = {
    "ring", "flat ring over all GPUs: 2(p-1) steps of bytes/p (NCCL's ring; Patarasuk and Yuan 2009)", cost, expand,
    transfers, true, false};

}  // namespace scalecast::collectives
