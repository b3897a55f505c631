// The intra-node reduce-scatter / all-gather ring: its time and its transfers; the rings across
// nodes on each local index.
#include "sim/collectives/node_ring.h"

namespace scalecast::collectives {

double node_ring_s(const LinkCapacities& l, double bytes) {
  if (l.gpus_per_node <= 1) return 0;
  return node_ring_latency_s(l) + (Bytes(node_ring_bytes(l.gpus_per_node, bytes)) / l.fabric_link().bandwidth).s();
}

double node_ring_latency_s(const LinkCapacities& l) { return (l.gpus_per_node - 1) * l.fabric_link().latency.s(); }

double node_ring_bytes(int g, double bytes) { return g <= 1 ? 0 : bytes * (g - 1) / g; }

Expansion node_ring(int nodes, int g, double bytes) {
  Expansion e;
  for (int step = 0; step < g - 1; ++step) {
    e.steps.emplace_back();
    for (int n = 0; n < nodes; ++n)
      for (int i = 0; i < g; ++i) e.steps.back().push_back({n * g + i, n * g + (i + 1) % g, bytes / g});
  }
  return e;
}

Expansion rail_rings(int nodes, int g, double bytes) {
  Expansion e;
  for (int step = 0; step < 2 * (nodes - 1); ++step) {
    e.steps.emplace_back();
    for (int i = 0; i < g; ++i)
      for (int n = 0; n < nodes; ++n) e.steps.back().push_back({n * g + i, ((n + 1) % nodes) * g + i, bytes / nodes});
  }
  return e;
}

}  // namespace scalecast::collectives
