// The tuning model's formulas (tuning.cc:213-578 at v2.27.7-1): bus bandwidth per algorithm and
// protocol from the graphs' channels and speeds and the per-architecture caps, converted to
// algorithm bandwidth; latency from the base and per-link-class tables; which combinations are
// enabled on which systems.
#include "sim/network/nccl/nccl_tuning.h"

#include <algorithm>
#include <cmath>

namespace scalecast::collectives::nccl {
namespace {

int log2i(double bytes) {
  if (bytes < 1) return -1;
  return static_cast<int>(std::floor(std::log2(bytes)));
}

// Steps of data a rank sends (tuning.cc:250-252).
int nsteps(Func f, int n) {
  switch (f) {
    case Func::all_reduce: return 2 * (n - 1);
    case Func::all_gather:
    case Func::reduce_scatter: return n - 1;
    default: return n;
  }
}

// Whether LL128 is on by default for the GPUs at the version (tuning.cc's ncclProtoEnable): none
// before 2.5; Volta with NVLink in 2.5-2.6; Volta or Ampere to 2.15, Hopper from 2.16, Blackwell
// from 2.25; every GPU from Volta on in 2.27.
bool ll128_by_default(int version, int cc) {
  if (version < 20500) return false;
  if (version < 20700) return cc == 70;
  if (version >= 22700) return cc >= 70;
  return cc == 70 || cc == 80 || (cc == 90 && version >= 21600) || (cc >= 100 && version >= 22500);
}

bool runs(const NcclSystem& s, const Graphs& g, Func f, Algo a, Proto p) {
  const bool ar = f == Func::all_reduce, gather = f == Func::all_gather || f == Func::reduce_scatter;
  const int v = s.version;
  switch (a) {
    case Algo::tree: if (!ar) return false; break;
    case Algo::ring: break;
    // NVLink SHARP: all-reduce from 2.17, all-gather and reduce-scatter in 2.17 and from 2.19; a
    // single node (more than one needs SHARP in the switches).
    case Algo::nvls:
      if (!(ar || (gather && v != 21800)) || !g.has_nvls || s.nodes > 1 || v < 21700) return false;
      break;
    case Algo::nvls_tree: if (!ar || !g.has_nvls || s.nodes == 1 || v < 21800) return false; break;
    // PAT from 2.23: all-gather and reduce-scatter, one GPU a node, a host network.
    case Algo::pat: if (!gather || s.ppn != 1 || s.nodes == 1 || !s.sockets || v < 22300) return false; break;
    default: return false;  // CollNet needs a SHARP plugin (NCCL_COLLNET_ENABLE=0 by default)
  }
  if ((a == Algo::nvls || a == Algo::nvls_tree || a == Algo::pat) && p != Proto::simple) return false;
  // Across nodes LL and LL128 need in-order delivery of 128-byte writes (aws-ofi-nccl sets
  // NCCL_PROTO=simple otherwise).
  if (s.nodes > 1 && !s.ordered_writes && p != Proto::simple) return false;
  // LL128 (tuning.cc:436-452): NVLink inside the node, and across nodes a GPUDirect path.
  if (p == Proto::ll128 && (!s.nvlink || !ll128_by_default(v, s.cc) || (s.nodes > 1 && !s.gdr))) return false;
  return true;
}

}  // namespace

HopLatencies hop_latencies(const NcclSystem& s, Algo a, Proto p, LatencyView view) {
  const bool physical = view == LatencyView::physical;
  const int v = physical ? kNcclNewest : s.version;
  const double net = physical ? s.latency_us : s.reported_latency_us;
  const double ppn = static_cast<double>(s.ranks) / s.nodes;
  const Hw intra_hw = s.nvlink ? Hw::nvlink : Hw::pci;
  HopLatencies h;
  h.base_us = base_latency_us(a, p);
  h.intra_us = hw_latency_us(intra_hw, a, p);
  h.inter_us = (ppn == 1 ? hw_latency_us(Hw::net, Algo::tree, p) : hw_latency_us(Hw::net, a, p)) + net;
  if (p == Proto::simple && !physical) h.inter_us += net;  // the tuning's flush
  // The network's overhead per ring step from 2.18.
  h.ring_step_floor_us = s.nodes > 1 && v >= 21800 ? (s.amd ? 2.0 : 1.0) * (p == Proto::simple ? 3 : 1) : 0;
  return h;
}

std::optional<Estimate> tuned(const NcclSystem& s, const Graphs& g, Func func, Algo a, Proto p, LatencyView view) {
  if (!runs(s, g, func, a, p)) return std::nullopt;
  const int n = s.ranks, nodes = s.nodes;
  const double ppn = static_cast<double>(n) / nodes;
  const int arch = arch_index(s.cc);
  const int ni = nodes <= 2 ? nodes - 1 : 2;
  const double ll_max = ll_max_bw(nodes == 1 ? arch : (s.amd ? 1 : 0), ni);
  const int steps = nsteps(func, n);
  const Graph& gr = (a == Algo::tree || a == Algo::pat) ? g.tree : (a == Algo::nvls || a == Algo::nvls_tree) ? g.nvls : g.ring;
  // Bandwidth (tuning.cc:249-328).
  double bw = nodes <= 2 ? gr.bw_intra : gr.bw_inter;
  const bool ar = func == Func::all_reduce;
  if (a == Algo::nvls) bw = ar ? std::min(gr.bw_intra, gr.bw_inter) : std::min(gr.bw_intra * (ppn - 1) / ppn, gr.bw_inter * 0.9);
  if (a == Algo::nvls_tree) bw = std::min(gr.bw_intra, nodes <= 2 ? gr.bw_inter : gr.bw_inter / 2);
  double bus = gr.channels * bw;
  // The estimate's own formula at the version where NCCL picks by it; the transfer as it meets the
  // hardware (the physical view) follows the newest formula.
  const int v = view == LatencyView::tuning ? s.version : kNcclNewest;
  // LL moves 8 bytes of data per 16-byte line: a quarter of the bus before 2.21, half from it.
  if (a == Algo::ring && p == Proto::ll) bus = std::min(ll_max, bus * (v < 22100 ? 0.25 : 0.5));
  // LL128 with one GPU a node: 0.7 in 2.7-2.22.
  const double ll128_ratio = ppn == 1 && v >= 20700 && v < 22300 ? 0.7 : 0.92;
  if (a == Algo::ring && p == Proto::ll128)
    bus = std::min(bus * ll128_ratio, gr.channels * per_channel_max_ring_ll128_bw(arch, ni));
  if (a == Algo::tree && ar) bus = std::min(bus * 0.92, gr.channels * per_channel_max_tree_bw(arch, ni));
  if (a == Algo::tree && p == Proto::ll) bus = std::min(bus / 3.8, ll_max);
  if (a == Algo::tree && p == Proto::ll128)
    bus = std::min(bus * (nodes == 1 ? 7.0 / 9.0 : 120.0 / 128.0), gr.channels * per_channel_max_tree_ll128_bw(arch, ni));
  if (a == Algo::tree && gr.tree_pattern && v >= 21800) bus *= 0.85;
  if (a == Algo::pat) bus *= v < 22400 ? 0.85 : 0.75;
  double alg = bus;
  if (a == Algo::ring) alg = bus * n / steps;
  else if (a == Algo::nvls || a == Algo::nvls_tree) alg = ar ? bus * 5.0 / 6.0 : bus;
  else if (!(func == Func::all_gather || func == Func::reduce_scatter)) alg = bus * 0.5;
  if (!(alg > 0)) return std::nullopt;
  // Latency (tuning.cc:329-378).
  const HopLatencies hop = hop_latencies(s, a, p, view);
  const double intra_lat = hop.intra_us, inter_lat = hop.inter_us;
  const Hw hw = nodes == 1 ? (s.nvlink ? Hw::nvlink : Hw::pci) : Hw::net;
  double lat = hop.base_us;
  switch (a) {
    case Algo::ring:
      if (func == Func::broadcast || func == Func::reduce) {
        lat += steps * (p == Proto::simple ? hw_latency_us(hw, Algo::tree, Proto::simple) : hw_latency_us(hw, Algo::ring, p));
      } else {
        // All-reduce counts 2 x nodes network steps in 2.12-2.22.
        const int inter = nodes == 1 ? 0 : (ar ? (v >= 21200 && v < 22300 ? 2 * nodes : 2 * (nodes - 1)) : nodes - 1);
        lat += (steps - inter) * std::max(intra_lat, hop.ring_step_floor_us) + inter * inter_lat;
      }
      break;
    case Algo::tree: lat += 2 * ((n / nodes - 1) * intra_lat + log2i(nodes) * inter_lat); break;
    case Algo::nvls: lat = intra_lat + (nodes > 1 ? inter_lat : 0); break;
    case Algo::nvls_tree: lat += intra_lat + 2 * log2i(nodes) * inter_lat; break;
    case Algo::pat: lat = 8 + log2i(nodes) * inter_lat / 3.5 + n * 2.8; break;
    default: break;
  }
  return Estimate{a, p, lat, alg, 0, gr.channels};
}

Estimate at_size(Estimate e, const NcclSystem& s, const Graphs& g, Func func, double bytes, LatencyView view) {
  // Time for this size (ncclTopoGetAlgoTime, tuning.cc:561-578).
  const bool ar = func == Func::all_reduce;
  if (e.algo == Algo::tree && ar) {
    const int log_size = log2i(std::floor(bytes / 64));
    if (log_size >= 0 && log_size < 23) e.bandwidth *= tree_correction(e.proto, log_size);
  }
  // The ring's plateau: from 2.7, x1.9; from 2.18, x1.4 from SM80 on (the physical view: the
  // newest rule).
  const int v = view == LatencyView::tuning ? s.version : kNcclNewest;
  if (e.algo == Algo::ring && e.proto == Proto::simple && s.nodes > 1 && ar && v >= 20700 &&
      bytes / (g.comm_channels * s.ranks) >= 64)
    e.latency_us *= s.cc < 80 || v < 21800 ? 1.9 : 1.4;
  e.time_us = e.latency_us + bytes / (1000 * e.bandwidth);
  return e;
}

std::optional<Estimate> estimate(const NcclSystem& s, const Graphs& g, Func func, double bytes, Algo a, Proto p,
                                 LatencyView view) {
  const auto e = tuned(s, g, func, a, p, view);
  if (!e) return std::nullopt;
  return at_size(*e, s, g, func, bytes, view);
}

std::vector<Estimate> estimates(const NcclSystem& s, const Graphs& g, const Enabled& enabled, Func func, double bytes,
                                LatencyView view) {
  std::vector<Estimate> out;
  for (int ai = 0; ai < kAlgos; ++ai)
    for (int pi = 0; pi < kProtos; ++pi) {
      if (!enabled.algo[static_cast<int>(func)][ai] || !enabled.proto[static_cast<int>(func)][pi]) continue;
      if (auto e = estimate(s, g, func, bytes, static_cast<Algo>(ai), static_cast<Proto>(pi), view)) out.push_back(*e);
    }
  std::stable_sort(out.begin(), out.end(), [](const Estimate& x, const Estimate& y) { return x.time_us < y.time_us; });
  return out;
}

}  // namespace scalecast::collectives::nccl
