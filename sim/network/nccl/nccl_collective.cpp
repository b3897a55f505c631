// The predicted time of a collective: NCCL's choice (its tuning view of latency), timed as the
// transfer meets the network (physical latency once), bounded by the scenario's fabric and NIC
// rates, plus the fill of the tree's and NVLink SHARP's chunk pipelines and the kernel launches;
// and what sets it.
#include "sim/network/nccl/nccl_collective.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <utility>

#include "sim/io/input_error.h"
#include "sim/network/nccl/nccl_system.h"
#include "sim/network/nccl/nccl_tuning.h"
#include "sim/network/nccl/nccl_units.h"

namespace scalecast::collectives::nccl {
namespace {

Func func_of(CollectiveOp op) {
  switch (op) {
    case CollectiveOp::all_reduce: return Func::all_reduce;
    case CollectiveOp::all_gather: return Func::all_gather;
    case CollectiveOp::reduce_scatter: return Func::reduce_scatter;
    case CollectiveOp::broadcast: return Func::broadcast;
    case CollectiveOp::reduce: return Func::reduce;
    default: throw std::logic_error("not an NCCL collective");
  }
}

// What a GPU's share of host memory traffic allows without peer-to-peer (NCCL's SHM transport:
// every step stages through host memory): its own PCIe link each way, or where the node's GPUs
// sit behind one host bridge (fabric.bridge_bandwidth), that bridge's rate divided among the GPUs
// sending at once; and where every GPU both writes and reads host memory (a ring, all-to-all,
// send/receive), no more than the fabric's collective rate, which is what such a ring measured
// (pcie3-host, sim/types/cluster.cpp). GPUs on root ports of their own (a two-socket server without a
// PCIe switch, pcie3-host's default) share no uplink: ddl-benchmarks' 4 x V100-PCIe nodes
// all-reduce 1.3 GB at 4.6 GB/s of bus bandwidth, above a 12 GB/s uplink split four ways.
double shm_bw(const NcclSystem& s, int senders, bool two_way) {
  const double uplink = s.bridge_bw > 0 ? s.bridge_bw / std::max(1, senders) : s.pcie_bw;
  return two_way ? std::min(uplink, s.fabric_bw) : uplink;
}

// A GPU's links inside the node, as a bound's name.
const char* fabric_name(const NcclSystem& s) {
  if (!s.peer_to_peer) return "host memory";
  return s.nvlink ? "NVLink" : "PCIe";
}

// Bus bandwidth (GB/s) the scenario's links allow a ring, and the link that sets it: the fabric
// inside a node (without peer-to-peer, the host uplink's share: all GPUs send in a ring, all but
// the last in a broadcast's or reduce's chain), and the node's network rate across nodes
// (`bounced`: its messages go through EFA's bounce buffers).
LinkBound links_bus_cap(const NcclSystem& s, Func f, int channels, bool bounced) {
  LinkBound cap{1e300, ""};
  if (s.ppn > 1) {
    const bool chain = f == Func::broadcast || f == Func::reduce;
    cap = {s.peer_to_peer ? s.fabric_bw : shm_bw(s, chain ? s.ppn - 1 : s.ppn, !chain), fabric_name(s)};
  }
  if (s.nodes > 1) {
    const LinkBound network = network_bound(s, channels, bounced);
    if (network.bw < cap.bw) cap = network;
  }
  return cap;
}

// NVLink SHARP's chunk (enqueue.cc:2003-2033 at v2.27.7-1): the chunk shrinks for small sizes
// with the operations in flight (channels x heads).
double nvls_chunk(const Graphs& g, const NcclSettings& set, Algo a, double bytes) {
  const double ops = static_cast<double>(g.nvls_channels) * g.nvls.channels;
  double chunk = set.nvls_chunk;
  if (a == Algo::nvls) {
    if (bytes < 64 * ops * chunk && chunk > 65536) chunk = 65536;
    if (bytes < 8 * ops * chunk && chunk > 32768) chunk = 32768;
    if (bytes < 2 * ops * chunk && chunk > 16384) chunk = 16384;
    return chunk;
  }
  if (set.nvls_tree_chunk > 0) chunk = std::min(chunk, set.nvls_tree_chunk);
  if (bytes < 32 * ops * chunk && chunk > 262144) chunk = 262144;
  if (bytes < 16 * ops * chunk && chunk > 131072) chunk = 131072;
  if (bytes < 4 * ops * chunk && chunk > 65536) chunk = 65536;
  if (bytes < 1 * ops * chunk && chunk > 32768) chunk = 32768;
  return chunk;
}

// Bytes of one network message (NCCL's proxy sends a slice of a step's chunk at a time,
// enqueue.cc calcCollChunking): a ring's slice is half its chunk (ALLREDUCE_CHUNKSTEPS 4 and
// SLICESTEPS 2 of NCCL_STEPS' 8 steps of NCCL_BUFFSIZE / 8), and below one loop half of a rank's
// share on a channel; NVLink SHARP's is its chunk; a tree's or a chain's message is one step, or
// a channel's share.
double network_message_bytes(const NcclSettings& set, const NcclSystem& s, const Graphs& g, Algo a, Func f,
                             double bytes) {
  const double step = set.buffsize / kSteps;
  const bool chain = f == Func::broadcast || f == Func::reduce;
  if (a == Algo::ring && !chain) return std::min(2 * step, bytes / (2.0 * g.comm_channels * s.ranks));
  if (a == Algo::nvls || a == Algo::nvls_tree) return nvls_chunk(g, set, a, bytes);
  return std::min(step, bytes / g.comm_channels);
}

// The fill of NVLink SHARP's pipeline: each of its stages (reduce through the switch and
// multicast back; across nodes also the network's send and receive) holds NCCL_STEPS chunks per
// channel before data flows at the full rate, no more than the message itself makes.
double nvls_fill_us(const Graphs& g, const NcclSettings& set, const Estimate& e, double bytes) {
  if (e.algo != Algo::nvls && e.algo != Algo::nvls_tree) return 0;
  const int stages = e.algo == Algo::nvls ? 2 : 4;
  const double chunk = nvls_chunk(g, set, e.algo, bytes);
  const double per_channel = e.bandwidth / g.nvls_channels;  // GB/s = kB/us
  const double depth = stages * kSteps * chunk;
  return depth / (1000 * per_channel) * std::min(1.0, bytes / (g.nvls_channels * depth));
}

// Network hops from a node's root to the tree's, each way: log2(nodes) rounded down (connect.cc).
int tree_network_hops(const NcclSystem& s) {
  return s.nodes > 1 ? static_cast<int>(std::floor(std::log2(s.nodes))) : 0;
}

// A tree chunk's data bytes and the bytes it puts on the wire per data byte, by protocol
// (enqueue.cc calcCollChunking): Simple's is one step of NCCL_BUFFSIZE / NCCL_STEPS (a tree's
// Simple chunk no longer shrinks since 2.20); LL's half a step (the other half is flags);
// LL128's 15 of each 16 words of a step, halved while the message holds few chunks a channel.
std::pair<double, double> tree_chunk(const NcclSystem& s, const NcclSettings& set, Proto p, double bytes,
                                     int channels) {
  if (p == Proto::simple) return {set.buffsize / kSteps, 1.0};
  if (p == Proto::ll) return {kLlBuffSize / kSteps / 2, 2.0};
  double chunk = kLl128BuffSize / kSteps / 16 * 15;
  const double ppn = s.ppn;
  const double nsteps = 1 + tree_network_hops(s) + 0.1 * ppn;
  const auto chunks = [&] { return std::floor(bytes / (channels * chunk)); };
  while (chunks() < nsteps * 64 / ppn && chunk > 131072) chunk /= 2;
  while (chunks() < nsteps * 16 / ppn && chunk > 32768) chunk /= 2;
  return {chunk, 16.0 / 15.0};
}

// The fill of the tree's pipeline. runTreeSplit (all_reduce.h) reduces up and broadcasts down on
// two halves of the block at once, so a channel's first chunk crosses every hop up the tree and
// back down before the slowest hop sets the pace: depth = GPUs per node - 1 + log2(nodes) hops
// each way (connect.cc), inside a node at the graph's per-channel intra speed, between nodes at
// its inter speed. A hop holds a chunk until all of it is in where the data moves in whole
// steps: every hop on Simple (prims_simple.h posts a step's flag after its data), and on any
// protocol the network's, whose proxy sends a step once all its lines are in (net.cc
// sendProxyProgress). Inside a node LL and LL128 forward each line as its flag arrives.
double tree_fill_us(const NcclSystem& s, const Graphs& g, const NcclSettings& set, const Estimate& e,
                    double bytes) {
  if (e.algo != Algo::tree) return 0;
  const auto [chunk, wire] = tree_chunk(s, set, e.proto, bytes, g.comm_channels);
  const double share = std::min(chunk, bytes / g.comm_channels) * wire;  // bytes = kB/us x 1000
  const double intra_us = share / (1000 * g.tree.bw_intra);
  const int network_hops = tree_network_hops(s);
  const double inter_us = network_hops > 0 ? share / (1000 * g.tree.bw_inter) : 0;
  const double held_intra_us = e.proto == Proto::simple ? intra_us : 0;
  const double one_way = (s.ppn - 1) * held_intra_us + network_hops * inter_us;
  return std::max(0.0, 2 * one_way - std::max(intra_us, inter_us));
}

// Point-to-point (sendrecv, alltoall): NCCL's p2p protocol is LL up to NCCL_P2P_LL_THRESHOLD
// (16 KiB, enqueue.cc:783) and Simple above; a step's latency is the ring's.
double p2p_latency_us(const NcclSystem& s, Proto p) {
  const Hw hw = s.nodes > 1 ? Hw::net : (s.nvlink ? Hw::nvlink : Hw::pci);
  return base_latency_us(Algo::ring, p) + hw_latency_us(hw, Algo::ring, p) + (s.nodes > 1 ? s.latency_us : 0);
}

NcclModel::Timing p2p_time(const NcclSystem& s, CollectiveOp op, double bytes, int channels) {
  const Proto p = bytes <= 16384 ? Proto::ll : Proto::simple;
  const double efficiency = p == Proto::ll ? 0.5 : 1.0;  // LL: half of each 16-byte line is flags
  // Inside a node: the GPU's links, or without peer-to-peer its share of the host uplink.
  const LinkBound intra{s.peer_to_peer ? std::min(s.nvlink ? s.nvlink_bw : s.pcie_bw, s.fabric_bw)
                                       : shm_bw(s, s.ppn, true),
                        fabric_name(s)};
  const LinkBound network = network_bound(s, channels);
  const double latency_us = p2p_latency_us(s, p);
  double transfer_us = 0;
  const char* bound = intra.what;
  if (op == CollectiveOp::sendrecv) {
    // Every rank sends its buffer to the next; a pair across nodes goes through one NIC.
    LinkBound b = intra;
    if (s.nodes > 1) {
      for (const LinkBound& l : {LinkBound{network.bw / s.nics, network.what}, LinkBound{s.pcie_bw, "GPU's PCIe link"}})
        if (l.bw < b.bw) b = l;
    }
    transfer_us = bytes / (1000 * efficiency * b.bw);
    bound = b.what;
  } else {
    // All-to-all: each rank sends bytes / n to every rank; a GPU's links carry what it sends to
    // its node, a node's NICs what its GPUs send to the others.
    const double piece = bytes / s.ranks;
    transfer_us = (s.ppn - 1) * piece / (1000 * efficiency * intra.bw);
    if (s.nodes > 1) {
      const double across = s.ppn * (s.ranks - s.ppn) * piece / (1000 * efficiency * network.bw);
      if (across > transfer_us) {
        transfer_us = across;
        bound = network.what;
      }
    }
  }
  return {from_microseconds(latency_us + transfer_us).s(), "p2p", name(p), 0, latency_us >= transfer_us ? "latency" : bound};
}

}  // namespace

NcclModel::NcclModel(const Cluster& sized, const NetworkRates& network, const NcclSettings& settings)
    : settings_(settings), system_(nccl_system(sized, settings)) {
  // The run's rates, in NCCL's units: GB/s per NIC of payload, host staging, one-way latency.
  system_.nic_payload = network.nics > 0 ? gb_per_s(network.nic_payload / network.nics) : 0;
  system_.staging_bw = gb_per_s(network.staging_bandwidth);
  system_.latency_us = microseconds(network.network_latency);
  graphs_ = nccl_graphs(system_, settings_);
  enabled_ = enabled(settings_);
}

void NcclModel::fill(Func func) const {
  const int f = static_cast<int>(func);
  for (int a = 0; a < kAlgos; ++a)
    for (int p = 0; p < kProtos; ++p) {
      const auto algo = static_cast<Algo>(a);
      const auto proto = static_cast<Proto>(p);
      physical_[f][a * kProtos + p] = tuned(system_, graphs_, func, algo, proto, LatencyView::physical);
      if (enabled_.algo[f][a] && enabled_.proto[f][p])
        tuning_[f][a * kProtos + p] = tuned(system_, graphs_, func, algo, proto, LatencyView::tuning);
    }
}

const NcclModel::Row& NcclModel::tuning(Func f) const {
  std::call_once(filled_[static_cast<int>(f)], [&] { fill(f); });
  return tuning_[static_cast<int>(f)];
}

const NcclModel::Row& NcclModel::physical(Func f) const {
  std::call_once(filled_[static_cast<int>(f)], [&] { fill(f); });
  return physical_[static_cast<int>(f)];
}

// NCCL 2.4 had no cost model: a tree for an all-reduce across nodes up to a threshold in bytes
// (init.cc ncclTreeThreshold at v2.4.8, its own figures: rings 5 GB/s a channel with NVLink,
// 5 GB/s without; trees 3/4 of that, doubled on two nodes, or 2/3 without NVLink; 6 us a ring
// step, 15 us a tree level across nodes and 4 inside), and LL up to a size that grows with the
// threads and channels the message would use (enqueue.cc getKernelInfo: 64 bytes a thread, 32
// before Volta, doubled across nodes, four times on a tree; threads from 64 to 256 and channels
// filled 8 bytes a thread at a time). nullopt where the masks leave that pair out.
std::optional<Estimate> NcclModel::legacy_choice(Func f, double bytes) const {
  const NcclSystem& s = system_;
  const int n = s.ranks, nodes = s.nodes;
  bool tree = false;
  if (f == Func::all_reduce && nodes >= 2) {
    const double ringbw = s.nvlink ? 5000.0 * graphs_.comm_channels : 5000.0;  // MB/s = B/us
    const double treebw = s.nvlink ? ringbw * 3 / 4 * (nodes == 2 ? 2 : 1) : ringbw * 2 / 3;
    const double ringlat = 6.0 * (n - 1), treelat = 15 * std::log2(nodes) + 4.0 * (n / nodes - 1);
    if (ringlat > treelat)
      tree = treebw > ringbw || bytes <= ringbw * treebw / (ringbw - treebw) * (ringlat - treelat);
  }
  const int thread_threshold = (s.cc <= 60 ? 32 : 64) * (nodes > 1 ? 2 : 1);
  const double per_thread_ll = std::min(thread_threshold, 8);
  const double chunks_per_loop = tree || f == Func::broadcast || f == Func::reduce ? 1 : n;
  double threads = 64;
  while (std::ceil(bytes / (threads * chunks_per_loop)) > per_thread_ll && threads * 2 <= 256) threads *= 2;
  const double channels =
      std::clamp(std::ceil(bytes / (threads * chunks_per_loop * per_thread_ll)), 1.0, double(graphs_.comm_channels));
  const double ll_threshold = channels * threads * chunks_per_loop * thread_threshold * (tree ? 4 : 1);
  const Proto p = bytes <= ll_threshold ? Proto::ll : Proto::simple;
  const auto& entry = tuning(f)[static_cast<int>(tree ? Algo::tree : Algo::ring) * kProtos + static_cast<int>(p)];
  if (!entry) return std::nullopt;
  return at_size(*entry, system_, graphs_, f, bytes, LatencyView::tuning);
}

std::optional<Estimate> NcclModel::choice(Func f, double bytes) const {
  if (system_.version < 20500)
    if (auto legacy = legacy_choice(f, bytes)) return legacy;
  std::optional<Estimate> best;
  for (const auto& entry : tuning(f)) {
    if (!entry) continue;
    const Estimate e = at_size(*entry, system_, graphs_, f, bytes, LatencyView::tuning);
    if (!best || e.time_us < best->time_us) best = e;  // a tie keeps NCCL's order
  }
  return best;
}

CollectiveTime NcclModel::time(CollectiveOp op, double bytes, int gpus_per_thread) const {
  const Timing t = timing(op, bytes, gpus_per_thread);
  return {t.seconds, *t.proto ? std::string(t.algo) + "/" + t.proto : std::string(t.algo), t.channels, t.bound};
}

NcclModel::Timing NcclModel::timing(CollectiveOp op, double bytes, int gpus_per_thread) const {
  const NcclSystem& s = system_;
  const Graphs& g = graphs_;
  const NcclSettings& settings = settings_;
  const double launch_s = std::max(0, gpus_per_thread - 1) * kLaunchPerGpuS;
  if (s.ranks <= 1) return {launch_s, "none", "", 0, "none"};
  if (op == CollectiveOp::sendrecv || op == CollectiveOp::alltoall) {
    Timing t = p2p_time(s, op, bytes, g.comm_channels);
    t.seconds += launch_s;
    return t;
  }
  const Func f = func_of(op);
  const auto chosen = choice(f, bytes);
  if (!chosen)
    throw InputError("NCCL_ALGO '" + settings.algo + "' and NCCL_PROTO '" + settings.proto +
                     "' leave no algorithm for " + to_string(op) + " on this cluster");
  Estimate e = at_size(*physical(f)[static_cast<int>(chosen->algo) * kProtos + static_cast<int>(chosen->proto)],
                       s, g, f, bytes, LatencyView::physical);
  // Unless a link below says otherwise, NCCL's own rate for the algorithm and protocol on its
  // channels sets the transfer.
  const char* bound = "NCCL's channels";
  const bool bounced = s.nodes > 1 && network_message_bytes(settings, s, g, e.algo, f, bytes) < s.bounce_below;
  if (e.algo == Algo::ring) {
    // The scenario's links bound the ring's bus bandwidth; the algorithm bandwidth follows.
    const double steps = f == Func::all_reduce ? 2.0 * (s.ranks - 1)
                         : (f == Func::all_gather || f == Func::reduce_scatter) ? s.ranks - 1.0 : s.ranks;
    const double bus = e.bandwidth * steps / s.ranks;
    const LinkBound cap = links_bus_cap(s, f, g.comm_channels, bounced);
    if (bus > cap.bw) {
      e.bandwidth *= cap.bw / bus;
      bound = cap.what;
    }
  }
  if (e.algo == Algo::tree && s.nodes > 1) {
    // A tree all-reduce moves each byte over a node's NICs once each way with two nodes and
    // twice with more (NCCL's two trees: a node is inner in one, a leaf in the other).
    const LinkBound network = network_bound(s, g.comm_channels, bounced);
    const double across = network.bw / (s.nodes > 2 ? 2.0 : 1.0);
    if (e.bandwidth > across) {
      e.bandwidth = across;
      bound = network.what;
    }
  }
  if (e.algo == Algo::nvls_tree) {
    // Across nodes NVLS-tree moves each byte over a node's NICs once with two nodes (the tree's
    // two halves each way) and twice with more (up and down the tree): the NICs' payload rate
    // bounds it, not NCCL's per-channel estimate of it; inside the node NVLink SHARP's rate does.
    const double intra = g.nvls.channels * g.nvls.bw_intra * 5.0 / 6.0;
    const LinkBound network = network_bound(s, g.nvls_channels, bounced);
    const double across = network.bw / (s.nodes > 2 ? 2.0 : 1.0);
    e.bandwidth = std::min(intra, across);
    bound = across < intra ? network.what : "NVLink SHARP";
  }
  const double transfer_us = bytes / (1000 * e.bandwidth);
  const double fill_us =
      settings.pipeline_fill ? nvls_fill_us(g, settings, e, bytes) + tree_fill_us(s, g, settings, e, bytes) : 0;
  if (e.latency_us + fill_us >= transfer_us) bound = e.latency_us >= fill_us ? "latency" : "pipeline fill";
  return {from_microseconds(e.latency_us + fill_us + transfer_us).s() + launch_s, name(e.algo), name(e.proto),
          e.algo == Algo::nvls || e.algo == Algo::nvls_tree ? g.nvls_channels : g.comm_channels, bound};
}

}  // namespace scalecast::collectives::nccl
