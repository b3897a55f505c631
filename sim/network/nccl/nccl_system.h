// What NCCL sees of a sized cluster (ranks, nodes, compute capability, NVLink and PCIe rates,
// NICs, latencies, CPU vendor) and the channel graphs its topology search finds on it: rings,
// trees and NVLink SHARP, each with channels and per-channel speeds (GB/s, NCCL's units).
#pragma once

#include "sim/types/cluster.h"
#include "sim/types/nccl_settings.h"

namespace scalecast::collectives::nccl {

struct NcclSystem {
  int version = kNcclNewest;           // NCCL's release (NcclSettings::version)
  int ranks = 1, nodes = 1, ppn = 1;   // ppn: ranks per node
  int cc = 70;                         // compute capability x 10
  bool nvlink = false;                 // GPUs of a node talk over NVLink (else PCIe)
  bool nvswitch = false;
  bool peer_to_peer = true;
  double nvlink_bw = 0;                // GB/s per GPU: links x NCCL's per-link figure
  double pcie_bw = 12;                 // GB/s of a GPU's x16 link
  double fabric_bw = 0;                // GB/s per GPU that the scenario's fabric gives collectives
  double bridge_bw = 0;                // GB/s of a host bridge all of a node's GPU copies cross
                                       // (fabric.bridge_bandwidth; 0: each GPU has its own link)
  int nics = 0;                        // NICs a node's ranks use
  double nic_bw = 0;                   // GB/s per NIC, line rate as NCCL reads it
  // The run's rates (NcclModel sets them from its LinkCapacities; nccl_system leaves them 0):
  double nic_payload = 0;              // GB/s per NIC that transfers carry (line x efficiency)
  double staging_bw = 0;               // GB/s through host memory without GPUDirect (0: none)
  double core_copy_bw = 0;             // GB/s one host core copies of network data (0: the NIC
                                       // places data itself, no core copies it)
  bool gdr = true;                     // GPUDirect RDMA
  bool sockets = false;                // NCCL's socket transport (kernel TCP)
  int socket_threads = 0;              // its helper threads per connection (0: the proxy thread)
  bool ordered_writes = true;          // LL and LL128 may cross the network
  double bounce_below = 0;             // bytes: a network message below this lands in libfabric's
                                       // bounce buffers and the EFA device copies it on into GPU
                                       // memory (aws-ofi-nccl's SENDRECV protocol); 0: never
  double reported_latency_us = 0;      // what the net plugin reports (tuning adds it)
  double latency_us = 0;               // one-way network latency, with the hosts' work per message
  bool amd = false;                    // AMD hosts
  bool nvls = false;                   // NVLink SHARP usable: NVSwitch, SM90+, > 2 ranks a node
};

// What NCCL sees of the cluster's topology and line rates, for its channel search (the run's
// payload, staging and latency rates come from NcclModel). Throws an InputError for a GPU
// outside the catalog.
NcclSystem nccl_system(const Cluster& sized, const NcclSettings& settings);

// Host cores that copy a node's network data each way on `channels` channels, where cores copy
// it (NcclSystem::core_copy_bw > 0): NCCL's socket helper threads, or its proxy threads.
double copying_cores(const NcclSystem& s, int channels);

// A rate and the part of the machine that sets it ("NICs", "GPUs' PCIe links", ...), so that a
// prediction can say what bounds it.
struct LinkBound {
  double bw = 0;  // GB/s
  const char* what = "";
};

// GB/s a node's ranks move across the network each way on `channels` channels: its NICs'
// payload rate (no faster than host staging), the run's GPUs' PCIe links to them, and where host
// cores copy the data, their rate; with the one of them that binds. `bounced`: the messages are
// below NcclSystem::bounce_below, so the EFA devices move each byte twice.
LinkBound network_bound(const NcclSystem& s, int channels, bool bounced = false);
inline double network_bw(const NcclSystem& s, int channels) { return network_bound(s, channels).bw; }

struct Graph {
  int channels = 1;
  double bw_intra = 0, bw_inter = 0;  // GB/s per channel
  bool tree_pattern = false;          // a plain tree (not balanced): the tree's busBw x 0.85
};

struct Graphs {
  Graph ring, tree, nvls;
  bool has_nvls = false;
  int comm_channels = 2;   // channels the ring and tree run on (connect.cc: twice the graph's)
  int nvls_channels = 16;  // channels NVLink SHARP runs on (nvls.cc:147-149)
};

// The search's outcome (src/graph/search.cc), in closed form: the fastest per-channel speed and
// channel count the NICs and links hold, stopping where NCCL's search stops, then the
// duplication of fast channels, and the runtime channel count with its bounds.
Graphs nccl_graphs(const NcclSystem& s, const NcclSettings& settings);

}  // namespace scalecast::collectives::nccl
