// The intra-node reduce-scatter / all-gather ring: its time and its transfers.
#include "sim/collectives/node_ring.h"

namespace scalecast::collectives {

double node_ring_s(const LinkCapacities& l, double bytes) {
  const int g = l.gpus_per_node;
  if (g <= 1) return 0;
  const LinkClass f = l.fabric_link();
  return (g - 1) * (f.latency_s + bytes / (g * f.bandwidth));
}

Expansion node_ring(int nodes, int g, double bytes) {
  Expansion e;
  for (int step = 0; step < g - 1; ++step) {
    e.steps.emplace_back();
    for (int n = 0; n < nodes; ++n)
      for (int i = 0; i < g; ++i) e.steps.back().push_back({n * g + i, n * g + (i + 1) % g, bytes / g});
  }
  return e;
}

}  // namespace scalecast::collectives
