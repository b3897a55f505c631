// Which registered all-reduce a library runs for a requested name ("auto": NCCL's choice between
// ring and tree by size), what one costs with the transport's per-call overhead, and MG-WFBP's
// alpha-beta line through those costs.
#pragma once

#include <string>
#include <string_view>

#include "sim/collectives/allreduce_algorithm.h"
#include "sim/link_capacities.h"

namespace scalecast::collectives {

inline constexpr std::string_view kAutomatic = "auto";

// Throws std::invalid_argument unless `name` is a registered algorithm or "auto".
void check_allreduce_choice(const std::string& name);

// `requested` itself, or for "auto" the cheaper of ring and tree for this size, ring inside one
// node (NCCL uses trees only across nodes).
const AllreduceAlgorithm& choose_allreduce(const LinkCapacities& links, const std::string& requested, double bytes);

// The algorithm's cost plus the transport's per-call overhead.
double allreduce_s(const LinkCapacities& links, const AllreduceAlgorithm& algorithm, double bytes);

// The line t = a + b*bytes through the chosen algorithm's cost at 1 MB and 64 MB (MG-WFBP's model).
struct AlphaBeta {
  double a = 0;  // s
  double b = 0;  // s/byte
};
AlphaBeta fit_alpha_beta(const LinkCapacities& links, const std::string& requested);

}  // namespace scalecast::collectives
