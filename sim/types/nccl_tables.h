// NCCL's performance model constants, as NCCL 2.27.7 (tag v2.27.7-1) holds them: latencies per
// algorithm, protocol and link class, bandwidth caps per architecture, the tree's correction by
// size, and the per-channel speeds its topology search tries. Values in us and GB/s (1e9 B/s).
#pragma once

#include <array>
#include <span>

namespace scalecast::collectives::nccl {

// NCCL's algorithms and protocols, in its order (nccl_common.h): a tie goes to the lower index.
enum class Algo { tree = 0, ring = 1, collnet_direct = 2, collnet_chain = 3, nvls = 4, nvls_tree = 5, pat = 6 };
enum class Proto { ll = 0, ll128 = 1, simple = 2 };
inline constexpr int kAlgos = 7, kProtos = 3;
// Link classes of the latency table: NVLink, PCIe, network.
enum class Hw { nvlink = 0, pci = 1, net = 2 };

const char* name(Algo a);   // "tree", "ring", "collnet_direct", "collnet_chain", "nvls", "nvls_tree", "pat"
const char* name(Proto p);  // "LL", "LL128", "Simple"

// src/graph/tuning.cc:134-156.
double base_latency_us(Algo a, Proto p);
double hw_latency_us(Hw hw, Algo a, Proto p);

// Architecture index of the bandwidth tables: Volta 0 (< 8.0), Ampere 1, Hopper 2, Blackwell 3.
int arch_index(int compute_capability);
// tuning.cc:165-189; `nodes_index` is 0 for one node, 1 for two, 2 for more.
double ll_max_bw(int row, int nodes_index);            // row: arch (one node) or CPU (0 Intel, 1 AMD)
double per_channel_max_ring_ll128_bw(int arch, int nodes_index);
double per_channel_max_tree_ll128_bw(int arch, int nodes_index);
double per_channel_max_tree_bw(int arch, int nodes_index);
// tuning.cc:555-559: the tree's bandwidth correction by log2(bytes / 64), for 0 <= log < 23.
double tree_correction(Proto p, int log_size);

// src/graph/search.cc:952-965: per-channel speeds (GB/s) the search tries, fastest first, for
// a system without a network ("intra") or with one ("inter").
std::span<const double> search_speeds(int compute_capability, bool inter);
// src/graph/topo.h:15-36: GB/s of one NVLink by architecture.
double nvlink_bw(int compute_capability);

inline constexpr int kMaxChannels = 64;         // device.h:87 MAXCHANNELS
inline constexpr int kMaxGraphChannels = 32;    // a ring or tree graph: MAXCHANNELS / 2
inline constexpr int kSteps = 8;                // device.h:25 NCCL_STEPS, FIFO slots per connection
inline constexpr double kNvlsChunk = 131072;    // transport/nvls.cc:152 NCCL_NVLS_CHUNKSIZE
inline constexpr double kBuffSize = 4194304;    // init.cc:620 NCCL_BUFFSIZE (Simple)
// init.cc:618-619: LL's buffer, 8 lines x 512 threads x NCCL_STEPS of 16-byte lines (8 B of
// data, 8 of flags); LL128's, 120 words x 640 threads x NCCL_STEPS of 8 B, in 128-byte lines of
// 120 B of data and an 8-byte flag (device.h NCCL_LL128_LINESIZE, NCCL_LL128_DATAELEMS).
inline constexpr double kLlBuffSize = 8.0 * 512 * kSteps * 16;        // 524,288
inline constexpr double kLl128BuffSize = 120.0 * 640 * kSteps * 8;    // 4,915,200

}  // namespace scalecast::collectives::nccl
