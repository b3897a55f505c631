// The cluster a scenario describes: GPUs, nodes, intra-node fabric, network and transport,
// topology and parameter-server placement. Transport constants form the set calibration fits.
#pragma once

#include <string>
#include <vector>

namespace scalecast {

enum class Transport { tcp, rdma };

// Constants of one transport over one NIC; every one of them is fitted by calibration.
struct TransportParams {
  double latency_s = 0;          // one-way latency of a small message between two nodes
  double efficiency = 1;         // share of the NIC line rate that bulk transfers reach
  double stream_bandwidth = 0;   // bytes/s one stream can carry (0: no limit)
  int streams = 1;               // streams a transfer between two nodes spreads over
  double host_staging_bandwidth = 0;  // bytes/s through host memory when the NIC cannot read
                                      // GPU memory directly (0: GPUDirect, no staging)
  double call_overhead_s = 0;    // software cost of starting one collective or PS request
};

// Defaults for a transport; sources in cluster.cpp.
TransportParams default_transport_params(Transport t);

// Intra-node interconnect between the GPUs of a node.
struct Fabric {
  std::string kind;               // pcie3, pcie4, pcie5, nvlink-bridge, nvlink2, nvlink3, nvlink4
  double link_bandwidth = 0;      // bytes/s per GPU and direction that a collective reaches
  double latency_s = 0;           // per hop
  double bridge_bandwidth = 0;    // bytes/s of a host bridge every GPU-to-GPU and GPU-to-NIC
                                  // transfer of the node crosses (PCIe without P2P); 0: none
};

// Throws std::invalid_argument naming the known fabrics.
Fabric default_fabric(const std::string& kind);
std::vector<std::string> fabric_kinds();

struct Topology {
  std::string kind = "single-switch";  // or "leaf-spine"
  int nodes_per_leaf = 0;              // leaf-spine: nodes under one leaf switch
  double oversubscription = 1;         // leaf-spine: downlink / uplink capacity of a leaf
};

struct ParameterServers {
  std::string placement = "dedicated";  // "dedicated" machines or "colocated" with workers
  int servers = 0;                      // server machines (dedicated) or processes (colocated);
                                        // 0: derived from gpus_per_server
  int gpus_per_server = 0;              // one server per this many worker GPUs (0: one per node)
  double nic_bandwidth = 0;             // bytes/s of a dedicated server's NIC (0: as workers)

  int count(int nodes, int gpus) const;  // servers for a job of this size
};

struct Cluster {
  std::string gpu;              // catalog key
  int nodes = 1;
  int gpus_per_node = 1;
  Fabric fabric;
  double nic_bandwidth = 0;     // bytes/s line rate of a node's NIC, each direction
  Transport transport = Transport::tcp;
  TransportParams net;          // constants of the transport (calibrated)
  Topology topology;
  ParameterServers ps;

  int gpus() const { return nodes * gpus_per_node; }
  // Bytes/s a bulk transfer between two nodes reaches: line rate x efficiency, capped by
  // stream limits and host staging.
  double network_bandwidth() const;
};

Transport parse_transport(const std::string& text);  // "tcp" | "rdma"
std::string to_string(Transport t);

}  // namespace scalecast
