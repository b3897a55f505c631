// Link classes of a cluster for the analytical cost model: fabric and network alpha and beta,
// the network capped by whatever the data must also cross on its way to the NIC.
#include "sim/collectives/link_class.h"

#include <algorithm>

namespace scalecast::collectives {

LinkClass fabric_link(const Cluster& cluster) {
  return {cluster.fabric.latency_s, cluster.fabric.link_bandwidth};
}

LinkClass network_link(const Cluster& cluster) {
  double bw = std::min(cluster.network_bandwidth(), cluster.fabric.link_bandwidth);
  return {cluster.net.latency_s, bw};
}

double spine_share(const Cluster& cluster) {
  const Topology& t = cluster.topology;
  if (t.kind != "leaf-spine" || t.nodes_per_leaf <= 0 || cluster.nodes <= t.nodes_per_leaf)
    return network_link(cluster).bandwidth;
  return std::min(network_link(cluster).bandwidth,
                  cluster.nic_bandwidth * cluster.net.efficiency / std::max(1.0, t.oversubscription));
}

}  // namespace scalecast::collectives
