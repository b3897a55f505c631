// A closed form of NCCL's topology search (src/graph/search.cc ncclTopoCompute, connect.cc
// ncclTopoPostset at v2.27.7-1) for the systems scenarios describe: NVSwitch or PCIe nodes with
// NICs attached to their GPUs in order.
#include "sim/network/nccl/nccl_system.h"

#include <algorithm>
#include <cmath>
#include <functional>

#include "sim/catalogs/gpu_catalog.h"
#include "sim/network/nccl/nccl_units.h"

namespace scalecast::collectives::nccl {
namespace {

// Pass 1 of the search (search.cc:1051-1128): from the first speed the links allow, the most
// channels each speed holds, keeping the best total (the first on a tie), until the channels
// reach `total` or the speeds fall below 0.49 of the best.
std::pair<int, double> search(int cc, bool inter, double max_bw, double total, int max_graph_channels,
                              const std::function<int(double)>& channels_at) {
  std::pair<int, double> best{0, 0};
  for (double speed : search_speeds(cc, inter)) {
    if (speed > max_bw || speed > total) continue;
    if (best.first > 0 && speed / best.second <= 0.49) break;
    const int n = std::min(max_graph_channels, channels_at(speed));
    if (n < 1) continue;
    if (best.first == 0 || n * speed > best.first * best.second) best = {n, speed};
    if (n == max_graph_channels || n * speed >= total) break;
  }
  if (best.first == 0) return {1, 0.1};  // no solution: one channel at 0.1 GB/s (search.cc:1165)
  return best;
}

}  // namespace

NcclSystem nccl_system(const Cluster& c, const NcclSettings& settings) {
  const GpuSpec& gpu = find_gpu(c.gpu);
  NcclSystem s;
  s.ranks = c.gpus();
  s.nodes = c.nodes;
  s.ppn = c.gpus_per_node;
  s.cc = gpu.compute_capability;
  s.nvlink = c.fabric.kind.starts_with("nvlink");
  s.nvswitch = c.fabric.nvswitch;
  s.peer_to_peer = c.fabric.peer_to_peer;
  s.fabric_bw = gb_per_s(c.fabric.link_bandwidth);
  s.bridge_bw = gb_per_s(c.fabric.bridge_bandwidth);
  s.nvlink_bw = gpu.nvlinks > 0 ? gpu.nvlinks * nvlink_bw(s.cc) : s.fabric_bw;  // a bridge: its own rate
  s.pcie_bw = gb_per_s(Rate(pcie_bandwidth(gpu)));
  s.nics = c.nics_used();
  s.nic_bw = gb_per_s(c.nic_bandwidth);
  s.core_copy_bw = gb_per_s(c.net.stream_bandwidth);
  s.gdr = c.net.host_staging_bandwidth <= Rate() && c.transport != Transport::tcp;
  s.sockets = c.transport == Transport::tcp;
  s.socket_threads = c.net.socket_threads;
  s.ordered_writes = c.net.ordered_writes;
  // aws-ofi-nccl sends through libfabric's RDM messages where writes are not in order (its
  // SENDRECV protocol); where the device cannot read GPU memory every byte is host-copied
  // instead (core_copy_bw).
  s.bounce_below = c.transport == Transport::efa && !s.ordered_writes && s.gdr ? c.net.read_threshold.bytes() : 0;
  s.reported_latency_us = microseconds(c.net.reported_latency);
  s.amd = c.cpu == CpuVendor::amd;
  s.version = settings.version;
  // NVLink SHARP from 2.17 (transport/nvls.cc).
  s.nvls = settings.nvls && s.nvswitch && s.cc >= 90 && s.ppn > 2 && s.version >= 21700;
  return s;
}

double copying_cores(const NcclSystem& s, int channels) {
  // Each channel's connection is progressed by the proxy thread of the rank it leaves from, so
  // min(ranks, channels) proxies carry a node's traffic. Sockets: helper threads copy each
  // connection's data, a connection each way; without them the proxy copies both ways. Other
  // host-progressed transports (EFA without device RDMA): the proxy copies what arrives.
  const int proxies = std::min(s.ppn, std::max(1, channels));
  if (!s.sockets) return proxies;
  return s.socket_threads > 0 ? double(std::max(1, channels)) * s.socket_threads : 0.5 * proxies;
}

LinkBound network_bound(const NcclSystem& s, int channels, bool bounced) {
  LinkBound b{s.nics * s.nic_payload, "NICs"};
  auto cap = [&b](double bw, const char* what) {
    if (bw < b.bw) b = {bw, what};
  };
  // A bounced message crosses each device twice on the way in: into the bounce buffer, then the
  // device's local read from it into GPU memory (libfabric rxr_pkt_copy_to_rx).
  if (bounced) cap(s.nics * s.nic_payload / 2, "EFA bounce buffers");
  if (s.staging_bw > 0) cap(s.nics * s.staging_bw, "host staging");
  // Whatever the NICs, the bytes cross the run's GPUs' own PCIe links on their way to and from
  // them (the NIC reads and writes GPU memory, or a copy stages it through host memory).
  cap(s.ppn * s.pcie_bw, "GPUs' PCIe links");
  if (s.core_copy_bw > 0) cap(copying_cores(s, channels) * s.core_copy_bw, "host cores");
  return b;
}

Graphs nccl_graphs(const NcclSystem& s, const NcclSettings& settings) {
  Graphs g;
  const int max_graph = max_channels(s.version) / 2;
  const double intra = s.nvlink ? s.nvlink_bw : s.pcie_bw;  // a GPU's links inside the node
  int channels = 1;
  double speed = 0.1;
  if (s.nodes == 1) {
    // Rings through the node's GPUs: each channel takes `speed` of every GPU's links.
    std::tie(channels, speed) =
        search(s.cc, false, intra, intra, max_graph, [&](double v) { return int(intra / v); });
  } else {
    // Rings enter and leave a node through its NICs, each NIC holding whole channels of `speed`
    // (net.bw -= bw, search.cc:656-668); inside the node a channel crosses the links of ppn - 1
    // of its ppn GPUs. The GPU to NIC path is the slower of PCIe and the NIC, and every channel
    // takes its speed from the PCIe link of the GPU it enters by and of the one it leaves by
    // (ncclTopoFollowPath subtracts it from each link of the path), so a node's GPUs' PCIe links
    // hold ppn x int(pcie / speed) channels whatever the NICs could.
    const double max_bw = std::min(s.pcie_bw, s.nic_bw);
    const double total = std::max(intra, s.pcie_bw);
    std::tie(channels, speed) = search(s.cc, true, max_bw, total, max_graph, [&](double v) {
      const int by_nics = std::min(s.nics * int(s.nic_bw / v), s.ppn * int(s.pcie_bw / v));
      const int by_links = s.ppn > 1 ? int(intra * s.ppn / ((s.ppn - 1) * v)) : max_graph;
      return std::min(by_nics, by_links);
    });
  }
  // Fast channels are split in two (ncclTopoDupChannels, search.cc:937-950), by the rule of the
  // version: none before 2.7; from 25 GB/s to 2.15; 2.16-2.17 also on SM90 from 50 GB/s; from
  // 2.18 from 25 GB/s unless past SM80 below 50 GB/s on more than 4 channels.
  const int version = s.version;
  const bool split = version < 20700   ? false
                     : version < 21600 ? speed >= 25
                     : version < 21800 ? (s.cc <= 80 && speed >= 25) || (s.cc <= 90 && speed >= 50)
                                       : speed >= 25 && !(s.cc > 80 && speed < 50 && channels > 4);
  if (split) {
    channels = std::min(2 * channels, max_graph);
    speed /= 2;
  }
  g.ring = {channels, speed, speed, false};
  // Trees run on the ring's channels. Across nodes, pass 2 raises the tree's intra speed while it
  // is below twice the network's (search.cc:1144-1163): to the fastest speed of the array up to
  // that which the node's links hold for every channel. SM90+ across nodes ends as a plain tree
  // (BALANCED_TREE relaxed to TREE).
  double tree_intra = speed;
  if (s.nodes > 1)
    for (double v : search_speeds(s.cc, true))
      if (v > speed && v <= 2 * speed && (s.ppn == 1 || channels * v <= intra)) {
        tree_intra = v;
        break;
      }
  g.tree = {channels, tree_intra, speed, s.nodes > 1 && s.cc >= 90};
  if (s.nvls) {
    // NVLS: a channel per GPU (a head each); every GPU's NVSwitch links carry one unit per
    // channel and two for its own head (search.cc:386-417).
    const int heads = s.ppn;
    double nvls_speed = 0;
    for (double v : search_speeds(s.cc, false))
      if ((heads + 1) * v <= s.nvlink_bw) {
        nvls_speed = v;
        break;
      }
    if (nvls_speed > 0) {
      g.has_nvls = true;
      g.nvls = {heads, nvls_speed, s.nodes > 1 ? speed : 2 * nvls_speed, false};
    }
  }
  // Runtime channels: twice the graph's from 2.5 (connect.cc); 2.4 doubled its rings only across
  // nodes with NVLink (misc/rings.cc:351-358).
  const int most = max_channels(version);
  g.comm_channels = std::min(most, version >= 20500 || (s.nodes > 1 && s.nvlink) ? 2 * channels : channels);
  // SM90 (from 2.25 SM90 and later) across nodes with fast rings doubles again from 2.18
  // (connect.cc:466-468).
  if ((version >= 22500 ? s.cc >= 90 : s.cc == 90) && version >= 21800 && s.nodes > 1 && speed > 45 &&
      g.comm_channels < 16)
    g.comm_channels *= 2;
  if (settings.min_channels > 0) g.comm_channels = std::max(g.comm_channels, settings.min_channels);
  if (settings.max_channels > 0) g.comm_channels = std::min(g.comm_channels, settings.max_channels);
  g.comm_channels = std::clamp(g.comm_channels, 1, most);
  g.nvls_channels = s.cc >= 100 ? (s.nodes == 1 ? 24 : 32) : 16;
  return g;
}

}  // namespace scalecast::collectives::nccl
