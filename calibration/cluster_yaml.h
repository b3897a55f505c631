// Writes a cluster as the `cluster:` section of a scenario file, so fitted constants can be pasted
// into a scenario (scalecast calibrate -o CLUSTER.yaml). Rates and times carry their units.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "sim/cluster.h"

namespace scalecast::calibration {

// `comments` are written first, one "# " line each; then the cluster section, complete enough
// that it replaces a scenario's `cluster:` block (gpus_per_node, fabric, network, topology,
// parameter_server) and reads back to the same constants.
void write_cluster_yaml(std::ostream& out, const Cluster& cluster,
                        const std::vector<std::string>& comments);

}  // namespace scalecast::calibration
