// Which registered all-reduce a library runs for a requested name ("auto": the library's own
// choice, NCCL's model where NCCL runs the collectives), what one costs with the transport's
// per-call overhead, and MG-WFBP's alpha-beta line through those costs.
#pragma once

#include <string>
#include <string_view>

#include "sim/collectives/allreduce_algorithm.h"
#include "sim/network/link_capacities.h"

namespace scalecast::collectives {

inline constexpr std::string_view kAutomatic = "auto";

// Throws an InputError unless `name` is a registered algorithm or "auto".
void check_allreduce_choice(const std::string& name);

// `requested` itself, or for "auto" the library's own choice: NCCL's (the registered "nccl", its
// model per size) where the run has NCCL's model; Gloo's ring; for NCCL on a GPU outside the
// catalog, the cheaper of the ring and tree closed forms, ring inside one node.
const AllreduceAlgorithm& choose_allreduce(const LinkCapacities& links, const std::string& requested, double bytes);

// Whether `requested` leaves the all-reduce to NCCL's model of the run ("auto", or "nccl" itself).
bool nccl_chooses(const LinkCapacities& links, const std::string& requested);

// The algorithm's cost plus the transport's per-call overhead (a library's own choice is timed
// whole by its model).
double allreduce_s(const LinkCapacities& links, const AllreduceAlgorithm& algorithm, double bytes);

// The line t = a + b*bytes through the chosen algorithm's cost at 1 MB and 64 MB (MG-WFBP's model).
struct AlphaBeta {
  double a = 0;  // s
  double b = 0;  // s/byte
};
AlphaBeta fit_alpha_beta(const LinkCapacities& links, const std::string& requested);

}  // namespace scalecast::collectives
