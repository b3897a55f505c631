// The pipelined chain of NCCL's reduce and broadcast: chunking, closed-form time, transfers.
#include "sim/collectives/pipelined_chain.h"

#include <algorithm>
#include <cmath>

namespace scalecast::collectives {

int chain_chunks(double bytes) {
  constexpr double kChunkBytes = 512 * 1024.0;
  constexpr int kMaxChunks = 64;
  return static_cast<int>(std::clamp(std::ceil(bytes / kChunkBytes), 1.0, double{kMaxChunks}));
}

double pipelined_chain_s(const LinkCapacities& l, double bytes) {
  const int p = l.gpus();
  if (p <= 1) return 0;
  const int chunks = chain_chunks(bytes);
  const double chunk = bytes / chunks;
  double sum = 0, slowest = 0;
  for (int hop = 0; hop < p - 1; ++hop) {
    // Hop from rank hop to rank hop + 1: across nodes where rank hop + 1 starts a node.
    const LinkClass link = (hop + 1) % l.gpus_per_node == 0 ? l.network_link(chunk) : l.fabric_link();
    const double t = (link.latency + Bytes(chunk) / link.bandwidth).s();
    sum += t;
    slowest = std::max(slowest, t);
  }
  return sum + (chunks - 1) * slowest;
}

Expansion pipelined_chain(int ranks, double bytes, bool towards_first) {
  Expansion e;
  e.in_order = true;
  const int hops = ranks - 1, chunks = chain_chunks(bytes);
  for (int step = 0; hops > 0 && step < chunks + hops - 1; ++step) {
    std::vector<Transfer> transfers;
    for (int h = 0; h < hops; ++h) {
      if (step - h < 0 || step - h >= chunks) continue;
      const int src = towards_first ? ranks - 1 - h : h, dst = towards_first ? ranks - 2 - h : h + 1;
      transfers.push_back({src, dst, bytes / chunks, step - h});
    }
    e.steps.push_back(std::move(transfers));
  }
  return e;
}

}  // namespace scalecast::collectives
