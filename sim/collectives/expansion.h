// Expansion of a communication task into point-to-point transfers, step by step, by the same
// algorithms the analytical costs describe; the SimGrid backend and the executor both use it.
#pragma once

#include <string>
#include <vector>

#include "sim/schedule.h"

namespace scalecast::collectives {

// Endpoints: GPU ranks 0..gpus-1 (rank = node * gpus_per_node + local index), then dedicated
// parameter servers gpus..gpus+servers-1. A colocated server j lives on node j's GPU-0 host.
struct Transfer {
  int src = 0;
  int dst = 0;
  double bytes = 0;
};

// Transfers of one step run concurrently; a step starts when the previous one has finished.
struct Expansion {
  std::vector<std::vector<Transfer>> steps;
  double total_bytes() const;
  size_t transfer_count() const;
};

int server_endpoint(const Schedule& schedule, int server);
int node_of(const Cluster& cluster, int endpoint);  // node of a GPU rank; -1 for a dedicated server

// Throws std::invalid_argument for compute tasks.
Expansion expand(const Schedule& schedule, const Task& task);

Expansion ring_allreduce(int p, double bytes);
Expansion halving_doubling_allreduce(int p, double bytes);
Expansion tree_allreduce(int nodes, int gpus_per_node, double bytes);
Expansion hierarchical_allreduce(int nodes, int gpus_per_node, double bytes);

}  // namespace scalecast::collectives
