// A run's setup from its scenario: the nodes a GPU count takes, the cluster sized for it, and
// the method's preset with the scenario's strategy settings applied.
#pragma once

#include <string>

#include "sim/types/cluster.h"
#include "sim/scenario/scenario.h"
#include "sim/types/strategy.h"

namespace scalecast {

// Nodes for a GPU count: gpus / gpus_per_node, or one partly used node for fewer GPUs; with
// cluster.nodes fixed, that many nodes holding gpus / nodes each. Throws an InputError.
int nodes_for(const Cluster& cluster, int gpus);
// The cluster sized for a run of `gpus` GPUs: its nodes, and the GPUs it uses of each.
Cluster sized_for(const Cluster& cluster, int gpus);
// The preset with the scenario's overrides applied.
Strategy strategy_for(const Scenario& scenario, const std::string& method);

}  // namespace scalecast
