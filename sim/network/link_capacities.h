// What each link of a sized cluster carries, worked out once from its description: the one value
// that collective costs, both simulators, the executor's predictions and calibration read.
#pragma once

#include <algorithm>
#include <memory>

#include "sim/types/cluster.h"
#include "sim/types/quantities.h"
#include "sim/types/strategy.h"

namespace scalecast {

namespace collectives::nccl {
class NcclModel;
struct NetworkRates;
}

// A class of links for the alpha-beta model: latency per message step, rate per direction (for
// transfers of the size it was asked for).
struct LinkClass {
  Seconds latency;
  Rate bandwidth;
};

// `rate` held to `cap`, where a zero cap (the transfer caps' "no such cap") limits nothing.
inline Rate under_cap(Rate rate, Rate cap) { return cap > Rate() ? std::min(rate, cap) : rate; }

// The size the bulk rate is defined at: transfers large enough that their size no longer matters.
inline constexpr double kBulkBytes = 1e300;

// Rates are per direction, of payload; a zero rate means "no such limit" where a comment says so.
struct LinkCapacities {
  int nodes = 1;
  int gpus_per_node = 1;

  // Inside a node.
  Rate fabric_bandwidth;    // per GPU and direction that collectives reach
  Seconds fabric_latency;   // per hop
  Rate bridge_bandwidth;    // of a host bridge every intra-node transfer crosses (0: none)

  // A node's path to the network, each direction: the NICs its GPUs of the run use (rails), each
  // line rate x efficiency (payload share of the wire).
  int nics = 1;
  Rate nic_payload;         // of all of them
  Seconds network_latency;  // one-way, node to node
  // What one transfer between nodes can reach on its own, whatever the NIC: its connection's
  // sockets x the per-stream rate (where the transport has one; not for ps-lite, below) and host
  // staging where the NIC cannot read GPU memory (0: no such cap). A server's transfers start in
  // host memory: no staging.
  Rate gpu_transfer_cap;
  Rate server_transfer_cap;
  Rate staging_bandwidth;   // of a transfer through host memory (0: GPUDirect)
  // BytePS's ps-lite over kernel TCP: what the ZeroMQ I/O threads of a worker node's processes,
  // and of one server, move in both directions together (0: no such limit).
  Rate ps_worker_io;
  Rate ps_server_io;
  // A copy between a GPU and pinned host memory over its PCIe link (0: the GPU is not in the
  // catalog); what a framework that stages gradients through the host pays.
  Rate host_copy_bandwidth;
  Seconds call_overhead;    // the transport's software cost per collective or request across
                            // nodes (0 inside one node)
  SizeCurve size_curve;     // share of the network's rates a transfer of a size reaches

  // Leaf-spine: a leaf's uplink, of payload (0 under a single switch, or with one leaf).
  Rate leaf_uplink;
  int nodes_per_leaf = 0;

  // Dedicated parameter servers: their NIC's payload rate, and where they sit.
  Rate server_nic_payload;
  Placement placement = Placement::dedicated;

  // The library that runs the run's collectives, and where it is NCCL on a catalog GPU, NCCL's
  // model of them on these links, built once (null otherwise: the registry's closed forms).
  CollectiveLibrary library = CollectiveLibrary::nccl;
  std::shared_ptr<const collectives::nccl::NcclModel> nccl;
  // NCCL's model of one node's GPUs on their own, where a strategy runs collectives inside each
  // node of a larger run (sharded data parallel's hybrid shard); null otherwise.
  std::shared_ptr<const collectives::nccl::NcclModel> node_nccl;

  int gpus() const { return nodes * gpus_per_node; }
  // One transfer between nodes of `bytes`, alone on the NICs: capped by the NIC, by the transfer
  // cap, and by the size curve.
  Rate transfer_bandwidth(bool gpu_end, double bytes = kBulkBytes) const;
  // One transfer through a dedicated server's NIC, alone: its NIC and the (unstaged) cap.
  Rate server_transfer_bandwidth(double bytes = kBulkBytes) const;
  LinkClass fabric_link() const { return {fabric_latency, fabric_bandwidth}; }
  // GPU to GPU across nodes: the transfer also crosses the GPU's fabric link to the NIC.
  LinkClass network_link(double bytes = kBulkBytes) const;
  // What each node gets for transfers of `bytes` when every node of its leaf sends across the
  // spine at once (the network link's bandwidth where nothing is oversubscribed).
  Rate spine_share(double bytes = kBulkBytes) const;
};

// Sockets (each copied by one host core) that one connection between two machines spreads over,
// as the library that moves the run's bytes opens them: the scenario's network.streams where it
// sets them; else NCCL's helper threads or proxy threads on its ring channels (copying_cores,
// sim/network/nccl/); one for a Gloo pair; one for BytePS's ps-lite connection between a
// worker node and a server. Sources in link_capacities.cpp.
double library_sockets(const Cluster& cluster, const Strategy& strategy);

// The links of `cluster` as a run of `strategy` uses them (its library decides the per-transfer
// caps over kernel TCP), with NCCL's model of its collectives where NCCL runs them. Throws
// an InputError for a cluster whose links could carry nothing (a rate or an efficiency
// that is not positive and finite).
LinkCapacities link_capacities(const Cluster& cluster, const Strategy& strategy);

// The network's rates NCCL's model takes from these capacities.
collectives::nccl::NetworkRates network_rates(const LinkCapacities& l);

// Time a collective task spends in the framework outside the transfers, the same in every
// backend: the strategy's cost per call and, where it stages the tensor through host memory
// (Strategy::host_staged), the copy to the host before and back after. Throws
// an InputError where staging is asked of a GPU without a known PCIe rate.
double framework_task_s(const LinkCapacities& l, const Strategy& s, double bytes);

// Software cost of one push or pull request, the same in every backend: the PS client's call
// overhead on the transport and the framework's per message.
double ps_request_overhead_s(const LinkCapacities& l, const Strategy& s);

}  // namespace scalecast
