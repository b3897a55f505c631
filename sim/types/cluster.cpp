// Default constants for fabrics and transports, and the derived network bandwidth of a cluster.
// Every default is a documented, typical figure; calibration replaces them with fitted ones.
#include "sim/types/cluster.h"

#include <algorithm>
#include <stdexcept>

#include "sim/io/input_error.h"
#include "sim/io/units.h"

namespace scalecast {

// libfabric 1.18 and later read CUDA buffers from just above the eager size, one device packet
// (prov/efa/src/efa_hmem.c: efa_max_eager_msg_size_with_largest_header() + 1, the device's
// max_msg_sz less libfabric's largest header; ~8 KiB on EFA). libfabric 1.11-1.17 read from
// 1 MiB (efa_min_read_msg_size in rxr_init.c / rxr_env.c) and copied smaller CUDA messages in
// with a local read per packet (rxr_pkt_copy_to_rx): scenarios of runs with those set 1MiB.
constexpr Bytes kEfaReadThreshold{8192};

Rate core_copy_bandwidth() {
  // ~25 Gbit/s per core on a 2019 server: a kernel TCP stream with a 1500-byte MTU is bound by
  // the one core that copies and checksums it.
  return Rate(25 * units::kGbps);
}

TransportParams default_transport_params(Transport t) {
  TransportParams p;
  if (t == Transport::tcp) {
    // Kernel TCP over Ethernet: ~25 us one-way through two stacks and a switch; payload share of
    // a 1500-byte MTU frame 1448/1538 = 0.94; one stream is bound by one core's copy and checksum
    // work; a connection spreads over the streams its library opens (library_sockets); NCCL's
    // socket transport spawns no helper threads unless it recognises the NIC's vendor
    // (net_socket.cc at v2.27.7-1, ncclNetSocketGetNsockNthread); data always crosses host
    // memory, so staging runs at PCIe speed (gen3: ~10 GB/s).
    p.latency = Seconds(25e-6);
    p.efficiency = 0.94;
    p.stream_bandwidth = core_copy_bandwidth();
    p.socket_threads = 0;
    p.host_staging_bandwidth = Rate(10 * units::kGBps);
    p.call_overhead = Seconds(20e-6);
  } else {
    // RDMA (InfiniBand verbs / RoCE): ~2 us one-way incl. a switch hop; 4 KiB MTU payload share
    // ~0.95; no per-stream CPU limit; GPUDirect RDMA unless the scenario says otherwise.
    p.latency = Seconds(2e-6);
    p.efficiency = 0.95;
    p.stream_bandwidth = Rate();
    p.host_staging_bandwidth = Rate();
    p.call_overhead = Seconds(10e-6);
    // EFA through libfabric (SRD) as RDMA, but aws-ofi-nccl's tuner model takes 20 us of network
    // latency on p5 (src/tuner/nccl_ofi_model.cpp); GPUDirect RDMA on p4d/p5.
    if (t == Transport::efa) {
      p.latency = Seconds(20e-6);
      p.read_threshold = kEfaReadThreshold;
    }
  }
  return p;
}

Fabric default_fabric(const std::string& kind) {
  // Effective per-GPU, per-direction bandwidths that NCCL-style collectives reach, about 80% of
  // the raw link rate: PCIe gen3/4/5 x16 = 15.75/31.5/63 GB/s raw; NVLink as the GPU connects it.
  if (kind == "pcie3") return {kind, Rate(10 * units::kGBps), Seconds(5e-6), Rate()};
  // PCIe gen3 without peer-to-peer (no PCIe switch that allows it, or GPUs split over two CPU
  // sockets): NCCL copies through host memory (its SHM transport), every GPU writing and reading
  // host memory at once. nccl-tests all_reduce on two RTX 2080 Ti without peer-to-peer measured
  // 4.0 GB/s bus bandwidth from 64 MiB to 1 GiB (validation/data/nccl-tests/rtx2080ti-1x2-ar;
  // one direction alone, a broadcast, reached 11.1).
  if (kind == "pcie3-host") return {kind, Rate(4 * units::kGBps), Seconds(8e-6), Rate(), false, false};
  if (kind == "pcie4") return {kind, Rate(20 * units::kGBps), Seconds(4e-6), Rate()};
  // PCIe gen4 without peer-to-peer (consumer or virtualised GPUs): staged through host memory.
  if (kind == "pcie4-host") return {kind, Rate(12 * units::kGBps), Seconds(6e-6), Rate(), false, false};
  if (kind == "pcie5") return {kind, Rate(40 * units::kGBps), Seconds(3e-6), Rate()};
  // Two-GPU NVLink bridge of GeForce Turing cards: 2 links x 25 GB/s each direction.
  if (kind == "nvlink-bridge") return {kind, Rate(40 * units::kGBps), Seconds(3e-6), Rate()};
  // V100 SXM2 hybrid cube mesh (6 links x 25 GB/s): ~130 GB/s ring bus bandwidth in nccl-tests.
  if (kind == "nvlink2") return {kind, Rate(130 * units::kGBps), Seconds(3e-6), Rate()};
  // A100 with NVSwitch (12 links x 25 GB/s = 300 GB/s): ~230 GB/s bus bandwidth.
  if (kind == "nvlink3") return {kind, Rate(230 * units::kGBps), Seconds(3e-6), Rate(), true};
  // H100/H200 with NVSwitch (18 links x 25 GB/s = 450 GB/s): ~360 GB/s bus bandwidth.
  if (kind == "nvlink4") return {kind, Rate(360 * units::kGBps), Seconds(3e-6), Rate(), true};
  // B200 with NVLink5 NVSwitch (18 links x 50 GB/s = 900 GB/s, HGX B200 data sheet): 80%.
  if (kind == "nvlink5") return {kind, Rate(720 * units::kGBps), Seconds(3e-6), Rate(), true};
  std::string known;
  for (const auto& k : fabric_kinds()) known += (known.empty() ? "" : ", ") + k;
  throw InputError("unknown fabric '" + kind + "' (known: " + known + ")");
}

Rate fabric_line_rate(const Fabric& f) {
  // PCIe x16 raw rates: 8, 16, 32 GT/s x 16 lanes at 128b/130b (15.75, 31.5, 63 GB/s).
  if (f.kind.starts_with("pcie3")) return std::max(f.link_bandwidth, Rate(15.75 * units::kGBps));
  if (f.kind.starts_with("pcie4")) return std::max(f.link_bandwidth, Rate(31.5 * units::kGBps));
  if (f.kind.starts_with("pcie5")) return std::max(f.link_bandwidth, Rate(63 * units::kGBps));
  return f.link_bandwidth / 0.8;
}

std::vector<std::string> fabric_kinds() {
  return {"pcie3", "pcie3-host", "pcie4", "pcie4-host", "pcie5", "nvlink-bridge",
          "nvlink2", "nvlink3", "nvlink4", "nvlink5"};
}

int ParameterServers::count(int node_count, int gpu_count) const {
  if (servers > 0) return servers;
  if (gpus_per_server > 0) return std::max(1, (gpu_count + gpus_per_server - 1) / gpus_per_server);
  return std::max(1, node_count);
}

Rate server_nic_bandwidth(const Cluster& c) { return c.ps.nic_bandwidth > Rate() ? c.ps.nic_bandwidth : c.nic_bandwidth; }

Rate staging_bandwidth(const Cluster& c) {
  const Rate staging = c.net.host_staging_bandwidth;
  return staging > Rate() ? std::min(staging, c.fabric.link_bandwidth) : Rate();
}

Transport parse_transport(const std::string& text) {
  if (text == "tcp") return Transport::tcp;
  if (text == "rdma") return Transport::rdma;
  if (text == "efa") return Transport::efa;
  throw InputError("unknown transport '" + text + "' (known: tcp, rdma, efa)");
}

std::string to_string(Transport t) {
  switch (t) {
    case Transport::tcp: return "tcp";
    case Transport::rdma: return "rdma";
    case Transport::efa: return "efa";
  }
  return "tcp";
}

CpuVendor parse_cpu_vendor(const std::string& text) {
  if (text == "intel") return CpuVendor::intel;
  if (text == "amd") return CpuVendor::amd;
  throw InputError("unknown CPU vendor '" + text + "' (known: intel, amd)");
}

std::string to_string(CpuVendor v) { return v == CpuVendor::amd ? "amd" : "intel"; }

int Cluster::nics_used() const {
  const int per_node = node_gpus > 0 ? node_gpus : gpus_per_node;
  const int nics = std::max(1, nics_per_node);
  // GPUs attach to NICs in order, per_node / nics to a NIC (or nics / per_node NICs to a GPU).
  const int used = (gpus_per_node * nics + per_node - 1) / std::max(1, per_node);
  return std::clamp(used, 1, nics);
}

double Cluster::cores_shared_by() const {
  return shared_cores > 0 ? std::max(1.0, static_cast<double>(nodes) / shared_cores) : 1.0;
}

TopologyKind parse_topology_kind(const std::string& text) {
  if (text == "single-switch") return TopologyKind::single_switch;
  if (text == "leaf-spine") return TopologyKind::leaf_spine;
  throw InputError("unknown topology '" + text + "' (known: single-switch, leaf-spine)");
}

std::string to_string(TopologyKind k) { return k == TopologyKind::single_switch ? "single-switch" : "leaf-spine"; }

Placement parse_placement(const std::string& text) {
  if (text == "dedicated") return Placement::dedicated;
  if (text == "colocated") return Placement::colocated;
  throw InputError("unknown placement '" + text + "' (known: dedicated, colocated)");
}

std::string to_string(Placement p) { return p == Placement::dedicated ? "dedicated" : "colocated"; }

}  // namespace scalecast
