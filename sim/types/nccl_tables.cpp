// The tables of NCCL 2.27.7's tuning model (src/graph/tuning.cc, search.cc, topo.h at tag
// v2.27.7-1), copied as figures: a model that picks what NCCL picks needs NCCL's own numbers.
#include "sim/types/nccl_tables.h"

namespace scalecast::collectives::nccl {
namespace {

using Triple = std::array<double, kProtos>;  // {LL, LL128, Simple}

// baseLat (tuning.cc:134-137): Tree, Ring; the others 0.
constexpr std::array<Triple, kAlgos> kBaseLat = {{{6.8, 14.0, 8.4}, {6.6, 14.0, 8.4}, {}, {}, {}, {}, {}}};
// hwLat[hw][algo][proto] (tuning.cc:143-156).
constexpr std::array<std::array<Triple, kAlgos>, 3> kHwLat = {{
    {{{.6, 1.25, 4.0}, {.6, 1.9, 3.4}, {0, 0, 3.7}, {0, 0, 2.8}, {0, 0, 25}, {0, 0, 25}, {}}},   // NVLink
    {{{1.0, 1.9, 4.0}, {1.0, 2.5, 5.7}, {0, 0, 3.7}, {0, 0, 2.8}, {0, 0, 0}, {0, 0, 0}, {}}},    // PCIe
    {{{5.0, 8.5, 14}, {2.7, 4.0, 14.0}, {0, 0, 31}, {0, 0, 30}, {0, 0, 18}, {0, 0, 14}, {}}},    // network
}};
using Row = std::array<double, 3>;  // one node, two nodes, more
constexpr std::array<Row, 4> kLlMaxBws = {{{39.0, 39.0, 20.4}, {87.7, 22.5, 19.0}, {141.0, 45.0, 35.0}, {282, 90, 70}}};
constexpr std::array<Row, 4> kRingLl128 = {{{20, 20, 20}, {20, 20, 20}, {36.7, 36.7, 36.7}, {73.4, 73.4, 73.4}}};
constexpr std::array<Row, 4> kTreeLl128 = {{{20, 20, 20}, {20, 20, 20}, {36.7, 36.7, 29.0}, {73.4, 73.4, 58.0}}};
constexpr std::array<Row, 4> kTree = {{{26.5, 18.5, 10.0}, {24.0, 23.6, 17.8}, {38.7, 41.4, 36.0}, {77.4, 82.8, 72.0}}};
constexpr std::array<std::array<double, 23>, kProtos> kTreeCorrection = {{
    {1.0, 1.0, 1.0, 1.0, .9, .8, .7, .7, .7, .7, .6, .5, .4, .4, .5, .6, .7, .8, .9, 1.0, 1.0, 1.0, 1.0},
    {1.0, 1.0, 1.0, 1.0, 1.0, .9, .8, .8, .8, .7, .6, .6, .6, .6, .6, .6, .8, .9, .9, .9, .9, 1.0, 1.0},
    {.9, .9, .9, .9, .9, .9, .9, .8, .7, .6, .6, .5, .5, .5, .5, .6, .7, .8, .7, .7, .8, .9, .9},
}};
constexpr std::array<double, 13> kIntra = {40, 30, 20, 18, 15, 12, 10, 9, 7, 6, 5, 4, 3};
constexpr std::array<double, 19> kInter = {48, 30, 28, 24, 20, 18, 15, 12, 10, 9, 7, 6, 5, 4, 3, 2.4, 1.2, 0.24, 0.12};
constexpr std::array<double, 11> kSm90Intra = {60, 50, 40, 30, 24, 20, 15, 12, 11, 6, 3};
constexpr std::array<double, 17> kSm90Inter = {48, 45, 42, 40, 30, 24, 22, 20, 17.5, 15, 12, 6, 3, 2.4, 1.2, 0.24, 0.12};
constexpr std::array<double, 11> kSm100Intra = {90, 80, 70, 60, 50, 40, 30, 24, 20, 19, 18};
constexpr std::array<double, 18> kSm100Inter = {96, 48, 45.1, 42, 40, 30, 24, 22, 20, 17.5, 15, 12, 6, 3, 2.4, 1.2, 0.24, 0.12};

}  // namespace

const char* name(Algo a) {
  static const char* const names[] = {"tree", "ring", "collnet_direct", "collnet_chain", "nvls", "nvls_tree", "pat"};
  return names[static_cast<int>(a)];
}

const char* name(Proto p) {
  static const char* const names[] = {"LL", "LL128", "Simple"};
  return names[static_cast<int>(p)];
}

double base_latency_us(Algo a, Proto p) { return kBaseLat[static_cast<int>(a)][static_cast<int>(p)]; }
double hw_latency_us(Hw hw, Algo a, Proto p) {
  return kHwLat[static_cast<int>(hw)][static_cast<int>(a)][static_cast<int>(p)];
}

int arch_index(int cc) { return cc < 80 ? 0 : cc < 90 ? 1 : cc < 100 ? 2 : 3; }
double ll_max_bw(int row, int n) { return kLlMaxBws[row][n]; }
double per_channel_max_ring_ll128_bw(int arch, int n) { return kRingLl128[arch][n]; }
double per_channel_max_tree_ll128_bw(int arch, int n) { return kTreeLl128[arch][n]; }
double per_channel_max_tree_bw(int arch, int n) { return kTree[arch][n]; }
double tree_correction(Proto p, int log_size) { return kTreeCorrection[static_cast<int>(p)][log_size]; }

std::span<const double> search_speeds(int cc, bool inter) {
  if (cc >= 100) return inter ? std::span<const double>(kSm100Inter) : std::span<const double>(kSm100Intra);
  if (cc >= 90) return inter ? std::span<const double>(kSm90Inter) : std::span<const double>(kSm90Intra);
  return inter ? std::span<const double>(kInter) : std::span<const double>(kIntra);
}

double nvlink_bw(int cc) {
  if (cc >= 100) return 40.1;  // SM100_NVLINK_BW
  if (cc >= 90) return 20.6;   // SM90_NVLINK_BW
  if (cc == 86 || cc == 87 || cc == 89) return 12.0;  // SM86_NVLINK_BW (GA10x)
  if (cc >= 70) return 20.0;   // SM70 / SM80
  return 18.0;                 // SM60
}

}  // namespace scalecast::collectives::nccl
