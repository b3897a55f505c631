// The library's choice of all-reduce algorithm and the per-call cost around the registry's
// closed forms.
#include "sim/collectives/algorithm_choice.h"

#include <algorithm>
#include <stdexcept>

namespace scalecast::collectives {

void check_allreduce_choice(const std::string& name) {
  if (name != kAutomatic && !find_allreduce(name))
    throw std::invalid_argument("unknown all-reduce algorithm '" + name + "' (known: " + allreduce_names(true) +
                                ")");
}

double allreduce_s(const LinkCapacities& l, const AllreduceAlgorithm& a, double bytes) {
  if (l.gpus() <= 1) return 0;
  return a.cost_s(l, bytes) + l.call_overhead_s;
}

const AllreduceAlgorithm& choose_allreduce(const LinkCapacities& l, const std::string& requested, double bytes) {
  if (requested != kAutomatic) return allreduce_algorithm(requested);
  const AllreduceAlgorithm& ring = allreduce_algorithm("ring");
  if (l.nodes <= 1) return ring;
  const AllreduceAlgorithm& tree = allreduce_algorithm("tree");
  return tree.cost_s(l, bytes) < ring.cost_s(l, bytes) ? tree : ring;
}

AlphaBeta fit_alpha_beta(const LinkCapacities& l, const std::string& requested) {
  const double s1 = 1e6, s2 = 64e6;
  const double t1 = allreduce_s(l, choose_allreduce(l, requested, s1), s1);
  const double t2 = allreduce_s(l, choose_allreduce(l, requested, s2), s2);
  AlphaBeta ab;
  ab.b = (t2 - t1) / (s2 - s1);
  ab.a = std::max(0.0, t1 - ab.b * s1);
  return ab;
}

}  // namespace scalecast::collectives
