// The registry of all-reduce algorithms: each lives in a file of its own (ring.cpp, tree.cpp, ...)
// with its closed-form cost, its expansion into transfers and its source; the registry lists them.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "sim/collectives/transfers.h"
#include "sim/network/link_capacities.h"

namespace scalecast::collectives {

struct AllreduceAlgorithm {
  const char* name;
  const char* description;  // one line, with the source it follows
  // Seconds one all-reduce of `bytes` among all GPUs of the cluster takes alone on it, without
  // the transport's or the framework's per-call overheads.
  double (*cost_s)(const LinkCapacities& links, double bytes);
  // Its transfers, step by step; ranks numbered node by node.
  Expansion (*expand)(int nodes, int gpus_per_node, double bytes);
  // How many transfers expand() makes, without making them (the size of a replay, estimated
  // before it runs).
  double (*transfers)(int nodes, int gpus_per_node, double bytes);
  // Shifting every rank by a whole number of nodes maps each step onto itself, so the SimGrid
  // backend may replay one block of nodes with ghost flows into it (exact).
  bool node_symmetric;
  // A library's own choice, timed by its model (LinkCapacities::nccl): the cost is the whole call
  // as the library runs it (no transport call overhead on top), and a replay expands what the
  // model picks at each size (expansion.cpp) rather than `expand`.
  bool library_choice;
};

// Every registered algorithm, in the order `--help` and the docs list them.
const std::vector<const AllreduceAlgorithm*>& allreduce_algorithms();
// nullptr for a name that is not registered.
const AllreduceAlgorithm* find_allreduce(std::string_view name);
// Throws an InputError naming the registered algorithms.
const AllreduceAlgorithm& allreduce_algorithm(std::string_view name);
// "ring, tree, halving-doubling, hierarchical, nccl" (and ", auto" with the library's own choice).
std::string allreduce_names(bool with_auto);

}  // namespace scalecast::collectives
