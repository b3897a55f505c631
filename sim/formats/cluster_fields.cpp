// The tables of the cluster's fabric, network transport and parameter-server fields: adding a
// field is one entry here (and its member in sim/types/cluster.h).
#include "sim/formats/cluster_fields.h"

#include <algorithm>

#include "sim/catalogs/gpu_catalog.h"
#include "sim/io/input_error.h"
#include "sim/io/units.h"

namespace scalecast {
namespace {

// Latencies and overheads a fit moves within a decade of the scenario's own (at least 1 us): what
// one transport stack, switch hop or library call takes, not what a model error asks for.
std::pair<double, double> decade(double v) { return {std::max(v, 1e-6) / 10, std::max(v, 1e-6) * 10}; }

// How a scenario names the two ways parameter-server transfers between two machines run.
constexpr std::string_view kSharedConnections = "shared", kInOrderConnections = "in-order";

// The fabric kind sets every other figure's default (default_fabric): the scenario's block reads it.
const Field<Fabric> kFabricKind = {
    .scenario_key = "kind", .schedule_key = "kind", .unit = Unit::choice,
    .meaning = "the GPUs' interconnect inside a node: pcie3, pcie3-host, pcie4, pcie4-host, pcie5, nvlink-bridge, "
               "nvlink2, nvlink3, nvlink4, nvlink5 (-host: no peer-to-peer, copies staged through host memory)",
    .read_schedule = [](const JsonReader& v, Fabric& f) { f.kind = v.choice("a fabric", fabric_kinds()); },
    .write_schedule = [](const Fabric& f) { return nlohmann::ordered_json(f.kind); }};

// With GPUDirect RDMA the NIC reads GPU memory; without, data is staged through host memory across
// the GPU's PCIe link (never faster than the fabric: staging_bandwidth()).
void read_gpudirect(const YamlReader& block, const YamlReader& value, Cluster& c) {
  const bool direct = value.boolean();
  c.net.host_staging_bandwidth = direct ? Rate() : Rate(pcie_bandwidth(find_gpu(c.gpu)));
  // EFA without device RDMA (g4dn; FI_EFA_USE_DEVICE_RDMA=0) delivers into libfabric's own receive
  // buffers, and the progressing thread copies each packet out: one core's copy rate bounds a
  // stream (libfabric prov/efa, long-CTS protocol: efa_rdm_pke_copy_payload_to_ope).
  if (!direct && c.transport == Transport::efa && !block.optional("stream_bandwidth"))
    c.net.stream_bandwidth = core_copy_bandwidth();
}

void read_host_staging(const YamlReader& block, const YamlReader& value, Cluster& c) {
  c.net.host_staging_bandwidth = Rate(value.rate(ranges::rate_or_none()));
  const auto gpudirect = block.optional("gpudirect");
  if (gpudirect && gpudirect->boolean() && c.net.host_staging_bandwidth > Rate())
    value.fail("no host staging bandwidth when gpudirect is true");
}

// {SIZE: SHARE, ...}: the share of the bulk rate a transfer of that size reaches.
void read_size_curve(const YamlReader&, const YamlReader& value, Cluster& c) {
  std::vector<std::pair<double, double>> anchors;
  for (const auto& [size, share] : value.entries("a map of transfer sizes to shares of the bulk rate"))
    anchors.emplace_back(size.bytes(ranges::size()), share.number(ranges::efficiency()));
  try {
    c.net.size_curve = SizeCurve(anchors);
  } catch (const InputError& e) {
    value.fail(e.what());
  }
}

// [[bytes, share], ...] as SizeCurve takes them (it refuses a curve that is not one).
void read_schedule_size_curve(const JsonReader& a, TransportParams& p) {
  std::vector<std::pair<double, double>> anchors;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const JsonReader anchor = a.item(i);
    if (anchor.size() != 2) anchor.fail("a pair [bytes, share of the bulk rate]");
    anchors.emplace_back(anchor.item(0).number(ranges::size()), anchor.item(1).number(ranges::efficiency()));
  }
  try {
    p.size_curve = SizeCurve(anchors);
  } catch (const InputError& e) {
    a.fail(e.what());
  }
}

}  // namespace

const FieldTable<Fabric>& fabric_fields() {
  static const FieldTable<Fabric> table = {"fabric", "fabric", &Cluster::fabric, {
      kFabricKind,
      {.scenario_key = "bandwidth", .schedule_key = "link_bandwidth_Bps", .unit = Unit::fabric_rate,
       .real = &Fabric::link_bandwidth, .meaning = "bytes/s per GPU and direction inside a node",
       .bound = ranges::rate, .adjustable = true,
       .fit = Fit{.order = 6, .range = [](const Cluster& b) {
         return std::pair{0.01 * b.fabric.link_bandwidth.bytes_per_s(), fabric_line_rate(b.fabric).bytes_per_s()}; }}},
      {.scenario_key = "latency", .schedule_key = "latency_s", .unit = Unit::seconds, .real = &Fabric::latency,
       .meaning = "latency of one step inside a node", .bound = ranges::latency, .adjustable = true,
       .fit = Fit{.order = 7, .range = [](const Cluster& b) { return decade(b.fabric.latency.s()); }}},
      {.scenario_key = "bridge_bandwidth", .schedule_key = "bridge_bandwidth_Bps", .unit = Unit::fabric_rate,
       .real = &Fabric::bridge_bandwidth,
       .meaning = "bytes/s of a host bridge every GPU-to-GPU and GPU-to-NIC transfer of the node crosses (PCIe "
                  "without P2P); 0: none",
       .bound = ranges::rate_or_none, .adjustable = true},
      {.schedule_key = "nvswitch", .unit = Unit::flag, .flag = &Fabric::nvswitch,
       .meaning = "every GPU reaches every other at its full NVLink rate (HGX)"},
      {.schedule_key = "peer_to_peer", .unit = Unit::flag, .flag = &Fabric::peer_to_peer,
       .meaning = "GPUs access each other's memory (NVLink or PCIe P2P); false: copies stage through host memory"},
  }};
  return table;
}

const FieldTable<TransportParams>& transport_fields() {
  static const FieldTable<TransportParams> table = {"network", "net", &Cluster::net, {
      {.scenario_key = "latency", .schedule_key = "latency_s", .unit = Unit::seconds,
       .real = &TransportParams::latency, .meaning = "latency of one step between nodes",
       .bound = ranges::latency, .adjustable = true,
       .fit = Fit{.order = 2, .range = [](const Cluster& b) { return decade(b.net.latency.s()); }}},
      {.scenario_key = "efficiency", .schedule_key = "efficiency", .unit = Unit::share,
       .real = &TransportParams::efficiency, .meaning = "share of the NIC line rate bulk transfers reach",
       .bound = ranges::efficiency, .adjustable = true,
       .fit = Fit{.order = 3, .range = [](const Cluster&) { return std::pair{0.02, 1.0}; }}},
      {.scenario_key = "stream_bandwidth", .schedule_key = "stream_bandwidth_Bps", .unit = Unit::network_rate,
       .real = &TransportParams::stream_bandwidth, .meaning = "bytes/s one stream carries",
       .bound = ranges::rate_or_none, .adjustable = true,
       .fit = Fit{.order = 5,
                  .range = [](const Cluster&) { return std::pair{0.1 * units::kGbps, 400 * units::kGbps}; },
                  .applies = [](const Cluster& b) { return b.net.stream_bandwidth > Rate(); }}},
      {.scenario_key = "streams", .schedule_key = "streams", .unit = Unit::count, .whole = &TransportParams::streams,
       .meaning = "streams (sockets) a connection between two machines spreads over",
       .min = 1, .max = ranges::kMaxStreams, .zero = "as the library that moves the run's bytes opens them",
       .adjustable = true},
      {.scenario_key = "socket_threads", .schedule_key = "socket_threads", .unit = Unit::count,
       .whole = &TransportParams::socket_threads,
       .meaning = "NCCL's socket transport: helper threads per connection (NCCL_SOCKET_NTHREADS); 0: the rank's "
                  "proxy thread copies every connection's data",
       .min = 0, .max = ranges::kMaxSocketThreads, .adjustable = true, .recorded_later = true,
       .only_with = Transport::tcp, .only_with_why = "socket_threads are NCCL's socket transport's: kernel TCP only"},
      {.scenario_key = "gpudirect", .unit = Unit::flag,
       .meaning = "the NIC reads GPU memory (GPUDirect RDMA); false: data is staged through host memory at the "
                  "GPU's PCIe rate",
       .adjustable = true, .read_scenario = read_gpudirect},
      {.scenario_key = "host_staging_bandwidth", .schedule_key = "host_staging_bandwidth_Bps",
       .unit = Unit::fabric_rate, .real = &TransportParams::host_staging_bandwidth,
       .meaning = "bytes/s through host memory where the NIC cannot read GPU memory (0: GPUDirect, no staging)",
       .bound = ranges::rate_or_none, .adjustable = true, .read_scenario = read_host_staging},
      {.scenario_key = "call_overhead", .schedule_key = "call_overhead_s", .unit = Unit::seconds,
       .real = &TransportParams::call_overhead, .meaning = "software cost of one collective call or request",
       .bound = ranges::latency, .adjustable = true,
       .fit = Fit{.order = 0, .range = [](const Cluster& b) { return decade(b.net.call_overhead.s()); }}},
      // Where nodes share cores, the CPU work of a message scales with the nodes and latency does
      // not: a fit tells the two apart (elsewhere they add up to one per-step cost, latency holds it).
      {.scenario_key = "message_overhead", .schedule_key = "message_overhead_s", .unit = Unit::seconds,
       .real = &TransportParams::message_overhead, .meaning = "host CPU work of one message between nodes",
       .bound = ranges::latency, .adjustable = true, .recorded_later = true,
       .fit = Fit{.order = 1,
                  .range = [](const Cluster& b) { return std::pair{1e-9, std::max(decade(b.net.latency.s()).second, 1e-3)}; },
                  .applies = [](const Cluster& b) { return b.shared_cores > 0; }}},
      {.scenario_key = "reported_latency", .schedule_key = "reported_latency_s", .unit = Unit::seconds,
       .real = &TransportParams::reported_latency,
       .meaning = "the latency the collective library's net plugin reports (NCCL's tuning adds it to each network step)",
       .bound = ranges::latency, .adjustable = true},
      {.schedule_key = "ordered_writes", .unit = Unit::flag, .flag = &TransportParams::ordered_writes,
       .meaning = "128-byte writes arrive in order (NCCL's LL and LL128 protocols may cross the network)"},
      {.scenario_key = "read_threshold", .schedule_key = "read_threshold_bytes", .unit = Unit::bytes,
       .real = &TransportParams::read_threshold,
       .meaning = "libfabric on EFA: a message of at least this many bytes is read straight into GPU memory, a "
                  "smaller one crosses the NIC twice (0: no threshold)",
       .bound = ranges::size_or_none, .adjustable = true, .recorded_later = true, .only_with = Transport::efa,
       .only_with_why = "libfabric's read threshold, which only an efa transport has"},
      {.scenario_key = "bandwidth_by_size", .schedule_key = "size_curve", .unit = Unit::curve,
       .meaning = "share of the bulk rate a transfer of a size reaches", .adjustable = true,
       .fit = Fit{.order = 4}, .read_scenario = read_size_curve, .read_schedule = read_schedule_size_curve,
       .write_schedule = [](const TransportParams& p) { return nlohmann::ordered_json(p.size_curve.anchors()); }},
      {.scenario_key = "connections", .schedule_key = "in_order_connections", .unit = Unit::choice,
       .flag = &TransportParams::in_order_connections, .flag_off = kSharedConnections,
       .flag_on = kInOrderConnections,
       .meaning = "parameter-server transfers between two machines: shared (a stream each, sharing the links "
                  "fairly) or in-order (one after another over one connection; in_order_connections in a schedule)",
       .adjustable = true,
       .read_scenario = [](const YamlReader&, const YamlReader& v, Cluster& c) {
         c.net.in_order_connections =
             v.choice("how transfers between two machines share them",
                      {std::string(kSharedConnections), std::string(kInOrderConnections)}) == kInOrderConnections; }},
  }};
  return table;
}

const FieldTable<ParameterServers>& parameter_server_fields() {
  static const FieldTable<ParameterServers> table = {"parameter_server", "parameter_server", &Cluster::ps, {
      {.scenario_key = "placement", .schedule_key = "placement", .unit = Unit::choice,
       .meaning = "dedicated (server processes on machines of their own, with their own NICs) or colocated (one "
                  "on each worker node, sharing its NIC)",
       .read_scenario = [](const YamlReader&, const YamlReader& v, Cluster& c) {
         c.ps.placement = parse_placement(v.choice("a placement", {"dedicated", "colocated"})); },
       .read_schedule = [](const JsonReader& v, ParameterServers& ps) {
         ps.placement = v.enumeration("a placement", {Placement::dedicated, Placement::colocated}); },
       .write_schedule = [](const ParameterServers& ps) { return nlohmann::ordered_json(to_string(ps.placement)); }},
      {.scenario_key = "servers", .schedule_key = "servers", .unit = Unit::count, .whole = &ParameterServers::servers,
       .meaning = "server machines (dedicated) or processes (colocated)", .min = 1, .max = ranges::kMaxGpus,
       .zero = "derived from gpus_per_server"},
      {.scenario_key = "gpus_per_server", .schedule_key = "gpus_per_server", .unit = Unit::count,
       .whole = &ParameterServers::gpus_per_server, .meaning = "one server per this many worker GPUs",
       .min = 1, .max = ranges::kMaxGpus, .zero = "one server per node"},
      {.scenario_key = "bandwidth", .schedule_key = "nic_bandwidth_Bps", .unit = Unit::network_rate,
       .real = &ParameterServers::nic_bandwidth, .meaning = "line rate of a dedicated server's NIC",
       .bound = ranges::rate, .zero = "as the workers' NICs", .adjustable = true,
       .fit = Fit{.order = 9,
                  .range = [](const Cluster& b) { return std::pair{0.01 * b.nic_bandwidth.bytes_per_s(), b.nic_bandwidth.bytes_per_s()}; },
                  .servers_only = true,
                  .start = [](const Cluster& c) { return server_nic_bandwidth(c).bytes_per_s(); }}},
      {.scenario_key = "stage_overhead", .schedule_key = "stage_overhead_s", .unit = Unit::seconds,
       .real = &ParameterServers::stage_overhead, .meaning = "host cost of one partition in one node-local stage",
       .bound = ranges::latency, .adjustable = true,
       .fit = Fit{.order = 8, .range = [](const Cluster& b) { return decade(b.ps.stage_overhead.s()); },
                  .servers_only = true}},
  }};
  return table;
}

}  // namespace scalecast
