// The cluster a scenario describes: GPUs, nodes, intra-node fabric, network and transport,
// topology and parameter-server placement. Transport constants form the set calibration fits.
#pragma once

#include <string>
#include <vector>

#include "sim/types/quantities.h"
#include "sim/types/size_curve.h"

namespace scalecast {

// Kernel TCP sockets; RDMA verbs (InfiniBand, RoCE); AWS EFA through libfabric (SRD).
enum class Transport { tcp, rdma, efa };

// Constants of one transport over one NIC; every one of them is fitted by calibration.
struct TransportParams {
  Seconds latency;               // one-way latency of a small message between two nodes
  double efficiency = 1;         // share of the NIC line rate that bulk transfers reach
  Rate stream_bandwidth;         // what one stream can carry (0: no limit)
  // Streams (sockets) a connection between two machines spreads over; 0: as the library that
  // moves the run's bytes opens them (library_sockets, sim/network/link_capacities.h).
  int streams = 0;
  // NCCL's socket transport (kernel TCP): helper threads per connection (NCCL_SOCKET_NTHREADS),
  // each copying its own sockets' data; 0, the default where NCCL does not recognise the NIC's
  // vendor: the rank's one proxy thread copies every connection's data, both ways.
  int socket_threads = 0;
  Rate host_staging_bandwidth;   // through host memory when the NIC cannot read GPU memory
                                 // directly (0: GPUDirect, no staging)
  Seconds call_overhead;         // software cost of starting one collective or PS request
  // Host CPU work of one message between nodes (the library's and kernel's send and receive
  // path: system calls, thread hand-offs, a rendezvous), on top of the one-way latency; it is CPU
  // time, so it grows where nodes share cores (Cluster::shared_cores). 0 by default: latency
  // holds it; calibration can tell it apart where shared cores make it scale with the nodes.
  Seconds message_overhead;
  // What the collective library learns of the network (sim/catalogs/nic_catalog.h): the latency its net
  // plugin reports (NCCL's tuning adds it to each network step when it picks an algorithm), and
  // whether 128-byte writes arrive in order (NCCL's LL and LL128 protocols may cross it).
  Seconds reported_latency;
  bool ordered_writes = true;
  // EFA through libfabric where aws-ofi-nccl sends messages (its SENDRECV protocol, on EFA
  // without in-order writes) and the device reads GPU memory: a message of at least this many
  // bytes is read by the receiving device straight into GPU memory; a smaller one lands in
  // libfabric's bounce buffers and the device copies it on into GPU memory, a second pass over
  // the NIC. 0: no such threshold (other transports; EFA's RDMA-write protocol).
  Bytes read_threshold;
  SizeCurve size_curve;          // share of the bulk rate a transfer of a size reaches (calibrated)
  // Parameter-server transfers between the same two machines: false, each has a stream of its
  // own and they share the links fairly; true, they go one after another over one connection
  // (a Gloo pair or a ZMQ socket sends in order), so a push and the next pull overlap instead.
  bool in_order_connections = false;
};

// Defaults for a transport; sources in cluster.cpp.
TransportParams default_transport_params(Transport t);

// What one host core copies of network data (kernel TCP's copy and checksum into and out of
// sockets, libfabric's copy out of its receive buffers); source in cluster.cpp.
Rate core_copy_bandwidth();

// Intra-node interconnect between the GPUs of a node.
struct Fabric {
  std::string kind;               // pcie3, pcie3-host, pcie4, pcie4-host, pcie5, nvlink-bridge,
                                  // nvlink2, nvlink3, nvlink4, nvlink5
  Rate link_bandwidth;            // per GPU and direction that a collective reaches
  Seconds latency;                // per hop
  Rate bridge_bandwidth;          // of a host bridge every GPU-to-GPU and GPU-to-NIC transfer of
                                  // the node crosses (PCIe without P2P); 0: none
  bool nvswitch = false;          // every GPU reaches every other at its full NVLink rate (HGX)
  bool peer_to_peer = true;       // GPUs access each other's memory (NVLink or PCIe P2P); false:
                                  // copies stage through host memory (NCCL's SHM transport)
};

// Throws an InputError naming the known fabrics.
Fabric default_fabric(const std::string& kind);
// Per GPU and direction, the fabric's raw links, the most a collective can reach through them:
// PCIe x16 of its generation, else (NVLink) the effective rate / 0.8.
Rate fabric_line_rate(const Fabric& f);
std::vector<std::string> fabric_kinds();

enum class TopologyKind { single_switch, leaf_spine };

struct Topology {
  TopologyKind kind = TopologyKind::single_switch;
  int nodes_per_leaf = 0;              // leaf-spine: nodes under one leaf switch
  double oversubscription = 1;         // leaf-spine: downlink / uplink capacity of a leaf

  // Whether traffic among `nodes` nodes crosses leaf uplinks (more nodes than one leaf holds).
  bool crosses_spine(int nodes) const {
    return kind == TopologyKind::leaf_spine && nodes_per_leaf > 0 && nodes > nodes_per_leaf;
  }
};

enum class Placement {
  dedicated,  // server processes on machines of their own, with their own NICs
  colocated,  // one server process on each worker node, sharing its NIC
};

// BytePS's node-local stages (byteps/common/core_loops.cc, v0.2): a partition is handed
// between loop threads (the NCCL launch loop, its event-sync loop, the copy loop), and a loop
// that found its queue empty sleeps 1 us, which Linux lengthens by the thread's timer slack,
// 50 us by default (prctl(2), PR_SET_TIMERSLACK): 25 us expected wait per hand-off. Each stage
// also synchronizes its stream or event once (a few us). An estimate from those two costs, one
// hand-off and one synchronization per stage; calibration fits it from bsp-ps rows
// (parameter_server.stage_overhead).
inline constexpr Seconds kPsStageOverhead{30e-6};

struct ParameterServers {
  Placement placement = Placement::dedicated;
  int servers = 0;                      // server machines (dedicated) or processes (colocated);
                                        // 0: derived from gpus_per_server
  int gpus_per_server = 0;              // one server per this many worker GPUs (0: one per node)
  Rate nic_bandwidth;                   // of a dedicated server's NIC (0: as workers)
  // Host cost of one partition in one node-local stage of a worker that sums its GPUs first
  // (BytePS): handing it from loop thread to loop thread and waiting for its CUDA work. The
  // stages take partitions one at a time, so this cost is serial. Default's source at
  // kPsStageOverhead.
  Seconds stage_overhead = kPsStageOverhead;

  int count(int nodes, int gpus) const;  // servers for a job of this size
};

// The processor vendor of the nodes: NCCL's tuning differs by it (network overhead per step,
// LL bandwidth across nodes).
enum class CpuVendor { intel, amd };

// Lee et al., "Characterizing Compute-Communication Overlap in GPU-Accelerated Distributed Deep
// Learning" (arXiv 2507.03114, 2025: A100, H100, MI210, MI250; GPT and LLaMA on 4 GPUs):
// overlapped computation is 18.9% slower on average (40% at most). The default for a GPU whose
// SM count the catalog lacks; catalog GPUs get theirs from the SMs communication holds
// (sim/scheduling/compute_slowdown.h).
inline constexpr double kComputeSlowdownUnderComm = 0.189;

struct Cluster {
  std::string gpu;              // catalog key
  int nodes = 1;
  int gpus_per_node = 1;        // GPUs of a node the run uses
  int node_gpus = 0;            // GPUs a node has (0: gpus_per_node); the NICs follow them
  int fixed_nodes = 0;          // the run spans exactly this many nodes (0: as few as hold it)
  int nics_per_node = 1;        // network rails: NICs a node has, each of nic_bandwidth, GPUs
                                // attached to them in order (node_gpus / nics_per_node each)
  std::string nic;              // NIC catalog key ("" when the scenario gives rates alone)
  CpuVendor cpu = CpuVendor::intel;
  Fabric fabric;
  Rate nic_bandwidth;           // line rate of a node's NIC, each direction
  Transport transport = Transport::tcp;
  TransportParams net;          // constants of the transport (calibrated)
  // Nodes emulated on one machine (a namespace testbed): the CPU cores all nodes' communication
  // software shares. 0: a real cluster, every node has cores of its own.
  int shared_cores = 0;
  // How much longer a GPU's computation takes while a collective or parameter-server transfer
  // of that GPU is in flight (SMs held by the communication kernels). Unless given (a scenario's
  // cluster.compute_slowdown, a switched-off mechanism, a schedule file), each run sets it from
  // the SMs its communication holds (scheduling::slowdown_from_held_sms).
  double compute_slowdown = kComputeSlowdownUnderComm;
  bool compute_slowdown_given = false;
  Topology topology;
  ParameterServers ps;

  int gpus() const { return nodes * gpus_per_node; }
  // NICs the run's GPUs of one node are attached to (a job that uses fewer GPUs of a node uses
  // only their NICs).
  int nics_used() const;
  // How many nodes' software runs on each core: nodes / shared_cores, at least 1 (1 without
  // shared cores).
  double cores_shared_by() const;
};

// The line rate of a dedicated parameter server's NIC: its own, or the workers' where unset.
Rate server_nic_bandwidth(const Cluster& c);

// What a network transfer through host memory reaches (0: GPUDirect, no staging): the
// transport's staging rate, never more than the fabric's per-GPU rate, since staged data crosses
// the same GPU link (a calibrated fabric moves both).
Rate staging_bandwidth(const Cluster& c);

Transport parse_transport(const std::string& text);  // "tcp" | "rdma" | "efa"
std::string to_string(Transport t);
TopologyKind parse_topology_kind(const std::string& text);  // "single-switch" | "leaf-spine"
std::string to_string(TopologyKind k);
CpuVendor parse_cpu_vendor(const std::string& text);  // "intel" | "amd"
std::string to_string(CpuVendor v);
Placement parse_placement(const std::string& text);  // "dedicated" | "colocated"
std::string to_string(Placement p);

}  // namespace scalecast
