// Alpha-beta costs of ring, double-binary-tree, recursive halving-doubling and hierarchical
// all-reduce, node-aware: a step that crosses nodes pays the network, others the fabric.
#include "sim/collectives/allreduce_cost.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "sim/collectives/link_class.h"

namespace scalecast::collectives {
namespace {

int ceil_log2(int n) {
  int k = 0;
  while ((1 << k) < n) ++k;
  return k;
}

// A flat ring over all GPUs, numbered node by node: of its 2(p-1) steps, 2(n-1) cross the network
// and pay its latency, the others the fabric's (NCCL's tuner counts latencies the same way);
// every step moves bytes/p at the pace of the slowest edge, the network once nodes are crossed.
double flat_ring_s(const Cluster& c, double bytes) {
  const int p = c.gpus(), n = c.nodes;
  const LinkClass f = fabric_link(c);
  if (n <= 1) return ring_allreduce_s(p, bytes, f.latency_s, f.bandwidth);
  const double bandwidth = std::min(spine_share(c), f.bandwidth);
  const double latency = 2.0 * (n - 1) * network_link(c).latency_s + 2.0 * (p - n) * f.latency_s;
  return latency + 2.0 * (p - 1) * bytes / (p * bandwidth);
}

// NCCL's double binary tree among nodes with chains inside nodes, costed as NCCL's tuner does
// (src/graph/tuning.cc): latency 2((g-1) a_fabric + log2(n) a_net); algorithm bandwidth half the
// bus bandwidth, itself discounted to 0.9, because each rank sends and receives up to twice the
// data across both trees.
double tree_s(const Cluster& c, double bytes) {
  const int n = c.nodes, g = c.gpus_per_node;
  const LinkClass f = fabric_link(c);
  const double net_latency = network_link(c).latency_s;
  const double bus = n > 1 ? std::min(spine_share(c), f.bandwidth) : f.bandwidth;
  return 2 * ((g - 1) * f.latency_s + ceil_log2(n) * net_latency) + bytes / (0.5 * 0.9 * bus);
}

// Rabenseifner: reduce-scatter by recursive halving, all-gather by recursive doubling. Ranks are
// numbered node by node, so the first halving steps pair GPUs of different nodes, and then every
// GPU of a node sends through its NIC at once. A non-power-of-two count first folds the extra
// ranks in (one exchange of the whole message before and after).
double halving_doubling_s(const Cluster& c, double bytes) {
  const int p = c.gpus();
  if (p <= 1) return 0;
  const int g = c.gpus_per_node;
  const LinkClass f = fabric_link(c);
  const LinkClass net{network_link(c).latency_s, spine_share(c)};
  int pow2 = 1;
  while (pow2 * 2 <= p) pow2 *= 2;
  double total = 0;
  double chunk = bytes;
  for (int distance = pow2 / 2; distance >= 1; distance /= 2) {
    chunk /= 2;
    const bool crosses = distance >= g;
    const double step = crosses ? net.latency_s + std::min(g, distance) * chunk / net.bandwidth
                                : f.latency_s + chunk / f.bandwidth;
    total += 2 * step;  // the same exchange again, mirrored, in the all-gather
  }
  if (pow2 != p) {
    const LinkClass fold = c.nodes > 1 ? net : f;
    total += 2 * (fold.latency_s + bytes / fold.bandwidth);
  }
  return total;
}

}  // namespace

double ring_allreduce_s(int p, double bytes, double latency_s, double bandwidth) {
  if (p <= 1) return 0;
  return 2.0 * (p - 1) * (latency_s + bytes / (p * bandwidth));
}

HierarchicalPhases hierarchical_phases(const Cluster& c, double bytes) {
  HierarchicalPhases ph;
  const int g = c.gpus_per_node, n = c.nodes;
  const LinkClass f = fabric_link(c);
  if (g > 1) {
    ph.reduce_scatter_s = (g - 1) * (f.latency_s + bytes / (g * f.bandwidth));
    ph.all_gather_s = ph.reduce_scatter_s;
  }
  if (n > 1) {
    // g concurrent rings of bytes/g each share the NIC: bandwidth per ring = B/g.
    const LinkClass net = network_link(c);
    ph.inter_node_s = ring_allreduce_s(n, bytes / g, net.latency_s, spine_share(c) / g);
  }
  return ph;
}

double allreduce_s(const Cluster& c, AllreduceAlgorithm algorithm, double bytes) {
  if (c.gpus() <= 1) return 0;
  double t = 0;
  switch (algorithm) {
    case AllreduceAlgorithm::ring: t = flat_ring_s(c, bytes); break;
    case AllreduceAlgorithm::tree: t = tree_s(c, bytes); break;
    case AllreduceAlgorithm::halving_doubling: t = halving_doubling_s(c, bytes); break;
    case AllreduceAlgorithm::hierarchical: {
      const HierarchicalPhases ph = hierarchical_phases(c, bytes);
      t = ph.reduce_scatter_s + ph.inter_node_s + ph.all_gather_s;
      break;
    }
    case AllreduceAlgorithm::automatic:
      throw std::logic_error("allreduce_s needs a resolved algorithm");
  }
  return t + c.net.call_overhead_s;
}

AllreduceAlgorithm resolve_allreduce(const Cluster& c, AllreduceAlgorithm algorithm, double bytes) {
  if (algorithm != AllreduceAlgorithm::automatic) return algorithm;
  if (c.nodes <= 1) return AllreduceAlgorithm::ring;  // NCCL uses trees only across nodes
  const double ring = allreduce_s(c, AllreduceAlgorithm::ring, bytes);
  const double tree = allreduce_s(c, AllreduceAlgorithm::tree, bytes);
  return tree < ring ? AllreduceAlgorithm::tree : AllreduceAlgorithm::ring;
}

AlphaBeta fit_alpha_beta(const Cluster& c, AllreduceAlgorithm algorithm) {
  const double s1 = 1e6, s2 = 64e6;
  const double t1 = allreduce_s(c, resolve_allreduce(c, algorithm, s1), s1);
  const double t2 = allreduce_s(c, resolve_allreduce(c, algorithm, s2), s2);
  AlphaBeta ab;
  ab.b = (t2 - t1) / (s2 - s1);
  ab.a = std::max(0.0, t1 - ab.b * s1);
  return ab;
}

}  // namespace scalecast::collectives
