// Link capacities from a cluster's description: payload rates, per-transfer caps by transport,
// leaf uplinks and server NICs, each derived here and nowhere else.
#include "sim/network/link_capacities.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "sim/io/input_error.h"
#include "sim/network/nccl/nccl_collective.h"
#include "sim/catalogs/gpu_catalog.h"

namespace scalecast {
namespace {

void require_rate(Rate rate, const char* what) {
  const double value = rate.bytes_per_s();
  if (!(value > 0) || !std::isfinite(value))
    throw InputError(std::string(what) + " must be a positive, finite rate, not " + std::to_string(value));
}

// ZeroMQ I/O threads of one ps-lite process: BYTEPS_ZMQ_NTHREADS, default 4 (ps-lite 2f40b17,
// src/zmq_van.h: zmq_ctx_set(context_, ZMQ_IO_THREADS, byteps_zmq_nthreads)). libzmq runs each
// connection's reads and writes on one of them, the least loaded when it connects.
constexpr int kZmqIoThreads = 4;

// What the ps-lite processes of one machine move over kernel TCP, both directions together: as
// many cores as they have connections, up to their I/O threads, each one core's copy rate.
Rate zmq_io_rate(Rate core_rate, int processes, int connections_each) {
  return core_rate * (processes * std::min(connections_each, kZmqIoThreads));
}

}  // namespace

double library_sockets(const Cluster& c, const Strategy& s) {
  if (c.net.streams > 0) return c.net.streams;
  // BytePS over TCP is ps-lite's ZeroMQ van (ps-lite 2f40b17, the commit BytePS v0.2.3-v0.2.5
  // pins, src/zmq_van.h): a worker opens one DEALER socket to each server, and the server answers
  // over that connection; only the node's root process pushes and pulls (byteps/common/
  // communicator.cc, LOCAL_ROOT). One TCP connection per worker node and server, whose reads and
  // writes one ZeroMQ I/O thread does (link_capacities: the machine's I/O threads).
  if (s.aggregation == Aggregation::parameter_server) return 1;
  // Gloo's TCP transport (gloo/transport/tcp/pair.cc at 5b14351): one socket per pair of ranks;
  // the calling thread writes, the device's event-loop thread reads.
  if (s.library == CollectiveLibrary::gloo) return 1;
  // NCCL: its socket transport's threads on the ring's channels, as its own model has them
  // (sim/network/nccl/nccl_system.cpp) under the run's NCCL settings. Its channel search
  // needs the GPU's catalog entry; without one, NCCL's one ring doubled into two channels
  // (connect.cc, ncclTopoPostset).
  namespace nccl = collectives::nccl;
  if (!has_gpu(c.gpu)) {
    nccl::NcclSystem s2;
    s2.ppn = c.gpus_per_node;
    s2.sockets = c.transport == Transport::tcp;
    s2.socket_threads = c.net.socket_threads;
    return nccl::copying_cores(s2, 2);
  }
  const nccl::NcclSystem system = nccl::nccl_system(c, s.nccl);
  return nccl::copying_cores(system, nccl::nccl_graphs(system, s.nccl).comm_channels);
}

Rate LinkCapacities::transfer_bandwidth(bool gpu_end, double bytes) const {
  const Rate cap = gpu_end ? gpu_transfer_cap : server_transfer_cap;
  return under_cap(nic_payload, cap) * size_curve.at(bytes);
}

Rate LinkCapacities::server_transfer_bandwidth(double bytes) const {
  return under_cap(server_nic_payload, server_transfer_cap) * size_curve.at(bytes);
}

LinkClass LinkCapacities::network_link(double bytes) const {
  return {network_latency, std::min(transfer_bandwidth(true, bytes), fabric_bandwidth)};
}

Rate LinkCapacities::spine_share(double bytes) const {
  const Rate link = network_link(bytes).bandwidth;
  if (leaf_uplink <= Rate()) return link;
  return std::min(link, leaf_uplink / nodes_per_leaf * size_curve.at(bytes));
}

LinkCapacities link_capacities(const Cluster& c, const Strategy& s) {
  require_rate(c.fabric.link_bandwidth, "the fabric bandwidth");
  require_rate(c.nic_bandwidth, "the NIC bandwidth");
  if (!(c.net.efficiency > 0 && c.net.efficiency <= 1))
    throw InputError("the network efficiency must be in (0, 1], not " + std::to_string(c.net.efficiency));
  LinkCapacities l;
  l.nodes = c.nodes;
  l.gpus_per_node = c.gpus_per_node;
  l.fabric_bandwidth = c.fabric.link_bandwidth;
  l.fabric_latency = c.fabric.latency;
  l.bridge_bandwidth = c.fabric.bridge_bandwidth;
  l.nics = c.nics_used();
  l.nic_payload = c.nic_bandwidth * c.net.efficiency * l.nics;
  // A step between nodes: the one-way latency, and the hosts' CPU work of the message, slowed
  // where nodes share cores (each core runs cores_shared_by() nodes' work of the same step).
  l.network_latency = c.net.latency + c.net.message_overhead * c.cores_shared_by();
  // The transport's software cost per call is the network's: a collective inside one node never
  // meets it (its launch is in the fabric's per-hop latency).
  l.call_overhead = c.nodes > 1 ? c.net.call_overhead : Seconds();
  l.host_copy_bandwidth = Rate(has_gpu(c.gpu) ? pcie_bandwidth(find_gpu(c.gpu)) : 0);
  l.size_curve = c.net.size_curve;
  // Sockets bound a transfer wherever the transport has a per-stream rate (kernel TCP: one core's
  // copy work per socket); RDMA's default has none. BytePS's ps-lite instead binds each machine:
  // its ZeroMQ I/O threads carry every connection's pushes and pulls, both ways, on the worker
  // node's root process and on each server (one connection per worker node and server).
  const Rate rate = c.net.stream_bandwidth;
  const bool zmq = rate > Rate() && c.net.streams == 0 && s.aggregation == Aggregation::parameter_server;
  const Rate per_transfer = rate > Rate() && !zmq ? rate * library_sockets(c, s) : Rate();
  if (zmq) {
    const int servers = std::max(1, c.ps.count(c.nodes, c.gpus()));
    const int processes = s.node_local_reduce ? 1 : c.gpus_per_node;  // worker processes per node
    l.ps_worker_io = zmq_io_rate(rate, processes, servers);
    l.ps_server_io = zmq_io_rate(rate, 1, processes * c.nodes);
  }
  l.server_transfer_cap = per_transfer;
  l.gpu_transfer_cap = per_transfer;
  l.staging_bandwidth = staging_bandwidth(c);
  if (l.staging_bandwidth > Rate()) l.gpu_transfer_cap = under_cap(l.staging_bandwidth, per_transfer);
  if (c.topology.crosses_spine(c.nodes)) {
    l.nodes_per_leaf = c.topology.nodes_per_leaf;
    l.leaf_uplink = l.nic_payload * c.topology.nodes_per_leaf / std::max(1.0, c.topology.oversubscription);
  }
  l.server_nic_payload = server_nic_bandwidth(c) * c.net.efficiency;
  l.placement = c.ps.placement;
  l.library = s.library;
  // NCCL runs the collectives of all-reduce methods and DataParallel (BytePS's node-local stages
  // keep their closed forms).
  if (s.library == CollectiveLibrary::nccl && s.aggregation != Aggregation::parameter_server && has_gpu(c.gpu))
    l.nccl = std::make_shared<const collectives::nccl::NcclModel>(c, network_rates(l), s.nccl);
  if (l.nccl && s.shard_in_node && c.nodes > 1) {
    Cluster node = c;
    node.nodes = 1;
    l.node_nccl = link_capacities(node, s).nccl;
  }
  return l;
}

collectives::nccl::NetworkRates network_rates(const LinkCapacities& l) {
  return {.nics = l.nics, .nic_payload = l.nic_payload, .staging_bandwidth = l.staging_bandwidth,
          .network_latency = l.network_latency};
}

double framework_task_s(const LinkCapacities& l, const Strategy& s, double bytes) {
  if (!s.host_staged) return s.call_overhead_s;
  if (!(l.host_copy_bandwidth > Rate()))
    throw InputError("method " + s.method + " stages gradients through host memory, and the GPU's PCIe rate is unknown");
  // Device to host before the collective, host to device after: one after the other, each at the
  // link's rate (ProcessGroupGloo waits for the first copy before Gloo starts).
  return s.call_overhead_s + (Bytes(2 * bytes) / l.host_copy_bandwidth).s();
}

double ps_request_overhead_s(const LinkCapacities& l, const Strategy& s) { return l.call_overhead.s() + s.call_overhead_s; }

}  // namespace scalecast
