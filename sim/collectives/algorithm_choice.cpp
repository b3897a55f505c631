// The library's choice of all-reduce algorithm and the per-call cost around the registry's
// closed forms.
#include "sim/collectives/algorithm_choice.h"
#include "sim/io/input_error.h"

#include <algorithm>
#include <stdexcept>

namespace scalecast::collectives {

void check_allreduce_choice(const std::string& name) {
  if (name != kAutomatic && !find_allreduce(name))
    throw InputError("unknown all-reduce algorithm '" + name + "' (known: " + allreduce_names(true) +
                     ")");
}

double allreduce_s(const LinkCapacities& l, const AllreduceAlgorithm& a, double bytes) {
  if (l.gpus() <= 1) return 0;
  return a.cost_s(l, bytes) + (a.library_choice ? 0 : l.call_overhead.s());
}

bool nccl_chooses(const LinkCapacities& l, const std::string& requested) {
  if (!l.nccl) return false;
  if (requested == kAutomatic) return true;
  const AllreduceAlgorithm* a = find_allreduce(requested);
  return a && a->library_choice;
}

const AllreduceAlgorithm& choose_allreduce(const LinkCapacities& l, const std::string& requested, double bytes) {
  if (nccl_chooses(l, requested)) return allreduce_algorithm("nccl");
  if (requested != kAutomatic) return allreduce_algorithm(requested);
  const AllreduceAlgorithm& ring = allreduce_algorithm("ring");
  if (l.nodes <= 1 || l.library == CollectiveLibrary::gloo) return ring;
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
