// Network adapters of GPU clusters, from NVIDIA's data sheets and AWS's NCCL plugin
// (aws-ofi-nccl, src/platform-aws.cpp and src/tuner/nccl_ofi_model.cpp), and the socket
// transport's defaults from NCCL 2.27 (src/transport/net_socket.cc).
#include "sim/catalogs/nic_catalog.h"

#include <stdexcept>

#include "sim/io/input_error.h"
#include "sim/io/units.h"

namespace scalecast {

const std::vector<NicSpec>& nic_catalog() {
  static const std::vector<NicSpec> catalog = {
      {.name = "connectx-6", .description = "NVIDIA ConnectX-6 VPI, 200 Gb/s HDR InfiniBand or 200 GbE RoCE",
       .line_rate = 200 * units::kGbps, .transport = Transport::rdma, .latency_s = 2e-6,
       .source = "NVIDIA ConnectX-6 VPI data sheet (2020): up to 200 Gb/s per port, sub-600 ns adapter latency; "
                 "2 us one-way through a switch and the host stacks"},
      {.name = "connectx-7", .description = "NVIDIA ConnectX-7, 400 Gb/s NDR InfiniBand or 400 GbE RoCE",
       .line_rate = 400 * units::kGbps, .transport = Transport::rdma, .latency_s = 2e-6,
       .source = "NVIDIA ConnectX-7 data sheet (2022): 400 Gb/s NDR per port (DGX H100 and HGX B200: eight, "
                 "one per GPU)"},
      {.name = "connectx-8", .description = "NVIDIA ConnectX-8 SuperNIC, 800 Gb/s XDR InfiniBand or 800 GbE",
       .line_rate = 800 * units::kGbps, .transport = Transport::rdma, .latency_s = 2e-6,
       .source = "NVIDIA ConnectX-8 SuperNIC data sheet (2024): 800 Gb/s XDR"},
      {.name = "bluefield-3", .description = "NVIDIA BlueField-3 SuperNIC, 400 Gb/s RoCE (Spectrum-X)",
       .line_rate = 400 * units::kGbps, .transport = Transport::rdma, .latency_s = 2e-6,
       .source = "NVIDIA BlueField-3 SuperNIC data sheet (2023): 400 Gb/s Ethernet (RoCE) or NDR"},
      {.name = "efa-v1", .description = "AWS EFA (p4d, p4de): 4 x 100 Gb/s per node, one per PCIe switch",
       .line_rate = 100 * units::kGbps, .transport = Transport::efa, .latency_s = 20e-6,
       .reported_latency_s = 75e-6, .ordered_writes = false,
       .source = "aws-ofi-nccl platform-aws.cpp: p4d/p4de latency 75 us, SENDRECV protocol without in-order "
                 "128-byte delivery, so NCCL_PROTO=simple; 400 Gb/s per p4d instance"},
      {.name = "efa-v2", .description = "AWS EFA v2 (p5, p5e): 32 x 100 Gb/s, grouped by 4 into 8 devices of 400 Gb/s",
       .line_rate = 400 * units::kGbps, .transport = Transport::efa, .latency_s = 20e-6,
       .reported_latency_s = 75e-6,
       .source = "aws-ofi-nccl: platform-aws.cpp p5/p5e latency 75 us, RDMA protocol with in-order writes; its "
                 "RDMA protocol groups up to 4 rails into one NCCL device (nccl_ofi_rdma.cpp, MAX_NUM_RAILS 4), so "
                 "p5's 32 x 100 Gb/s are 8 devices of 400 Gb/s, one per GPU; tuner model 20 us on p5"},
      {.name = "efa-v3", .description = "AWS EFA v3 (p5en, p6-b200): 16 x 200 Gb/s, grouped by 2 into 8 devices",
       .line_rate = 400 * units::kGbps, .transport = Transport::efa, .latency_s = 18e-6,
       .reported_latency_s = 35e-6,
       .source = "aws-ofi-nccl: platform-aws.cpp p5en/p6-b200 latency 35 us; rails grouped into one device per "
                 "GPU as on p5; tuner model 18 us on p5en; 3,200 Gb/s per p5en instance"},
      {.name = "ena", .description = "AWS Elastic Network Adapter (kernel TCP), up to 100 Gb/s",
       .line_rate = 100 * units::kGbps, .transport = Transport::tcp, .latency_s = 25e-6,
       .socket_threads = 2, .sockets_per_thread = 8,
       .source = "NCCL net_socket.cc: NIC vendor 0x1d0f (AWS) gets 2 threads x 8 sockets; AWS instance type "
                 "pages give the rate per instance (e.g. g4dn.8xlarge 50 Gb/s)"},
      {.name = "gvnic", .description = "Google Cloud gVNIC (kernel TCP)",
       .line_rate = 100 * units::kGbps, .transport = Transport::tcp, .latency_s = 25e-6,
       .socket_threads = 4, .sockets_per_thread = 1,
       .source = "NCCL net_socket.cc: NIC vendor 0x1ae0 (Google) gets 4 threads x 1 socket"},
      {.name = "ethernet", .description = "any other Ethernet NIC under kernel TCP",
       .line_rate = 25 * units::kGbps, .transport = Transport::tcp, .latency_s = 25e-6,
       .socket_threads = 0, .sockets_per_thread = 1,
       .source = "NCCL net_socket.cc: other vendors (and a container's virtual interface, which has no "
                 "vendor to read) get no helper threads: the proxy thread sends on the one control socket"},
  };
  return catalog;
}

const NicSpec& find_nic(const std::string& name) {
  for (const auto& n : nic_catalog())
    if (n.name == name) return n;
  std::string known;
  for (const auto& n : nic_names()) known += (known.empty() ? "" : ", ") + n;
  throw InputError("unknown NIC '" + name + "' (known: " + known + ")");
}

std::vector<std::string> nic_names() {
  std::vector<std::string> out;
  for (const auto& n : nic_catalog()) out.push_back(n.name);
  return out;
}

}  // namespace scalecast
