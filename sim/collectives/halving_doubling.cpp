// Recursive halving-doubling all-reduce (Rabenseifner, ICCS 2004; Thakur, Rabenseifner and Gropp,
// IJHPCA 19(1), 2005): reduce-scatter by recursive halving, all-gather by recursive doubling.
#include <algorithm>
#include <cmath>
#include <vector>

#include "sim/collectives/allreduce_algorithm.h"

namespace scalecast::collectives {
namespace {

int largest_power_of_two(int p) {
  int pow2 = 1;
  while (pow2 * 2 <= p) pow2 *= 2;
  return pow2;
}

// Ranks are numbered node by node, so the first halving steps pair GPUs of different nodes, and
// then every GPU of a node sends through its NIC at once. A non-power-of-two count first folds
// the extra ranks in (one exchange of the whole message before and after).
double cost(const LinkCapacities& l, double bytes) {
  const int p = l.gpus();
  if (p <= 1) return 0;
  const int g = l.gpus_per_node;
  const LinkClass f = l.fabric_link();
  const int pow2 = largest_power_of_two(p);
  double total = 0;
  double chunk = bytes;
  for (int distance = pow2 / 2; distance >= 1; distance /= 2) {
    chunk /= 2;
    const bool crosses = distance >= g;
    const Seconds step = crosses ? l.network_latency + Bytes(std::min(g, distance) * chunk) / l.spine_share(chunk)
                                 : f.latency + Bytes(chunk) / f.bandwidth;
    total += 2 * step.s();  // the same exchange again, mirrored, in the all-gather
  }
  if (pow2 != p) {
    const LinkClass fold = l.nodes > 1 ? LinkClass{l.network_latency, l.spine_share(bytes)} : f;
    total += 2 * (fold.latency + Bytes(bytes) / fold.bandwidth).s();
  }
  return total;
}

Expansion expand(int nodes, int gpus_per_node, double bytes) {
  const int p = nodes * gpus_per_node;
  Expansion e;
  if (p <= 1) return e;
  const int pow2 = largest_power_of_two(p);
  // Ranks beyond the largest power of two fold their data into a partner first.
  if (pow2 != p) {
    e.steps.emplace_back();
    for (int r = pow2; r < p; ++r) e.steps.back().push_back({r, r - pow2, bytes});
  }
  std::vector<std::vector<Transfer>> halving;
  double chunk = bytes;
  for (int d = pow2 / 2; d >= 1; d /= 2) {
    chunk /= 2;
    halving.emplace_back();
    for (int r = 0; r < pow2; ++r) halving.back().push_back({r, r ^ d, chunk});
  }
  for (const auto& step : halving) e.steps.push_back(step);
  for (auto it = halving.rbegin(); it != halving.rend(); ++it) e.steps.push_back(*it);
  if (pow2 != p) {
    e.steps.emplace_back();
    for (int r = pow2; r < p; ++r) e.steps.back().push_back({r - pow2, r, bytes});
  }
  return e;
}

double transfers(int nodes, int gpus_per_node, double) {
  const int p = nodes * gpus_per_node;
  if (p <= 1) return 0;
  const int pow2 = largest_power_of_two(p);
  return 2.0 * (p - pow2) + 2.0 * pow2 * std::log2(pow2);
}

}  // namespace

extern const AllreduceAlgorithm kHalvingDoublingAllreduce = {
    "halving-doubling",
    "recursive halving-doubling, node-aware (Rabenseifner 2004; Thakur et al. 2005)", cost, expand, transfers, false, false};

}  // namespace scalecast::collectives
