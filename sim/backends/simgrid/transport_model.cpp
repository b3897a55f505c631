// The transport model of the SimGrid replay: CM02 max-min flow sharing, with capacities, caps
// and latencies computed from Cluster::net and Cluster::fabric only, so calibration fits all.
//
// Capacities and caps come from LinkCapacities (sim/network/link_capacities.h), as every backend's do.
// Sources and choices, one per constant the replay uses:
// - Sharing: network/model CM02 (H. Casanova, L. Marchal, "A Network Model for Simulation of
//   Grid Application", LIP RR-2002-40): bandwidth-limited flows share every link max-min. LV08
//   and SMPI (P. Velho et al., "On the Validity of Flow-level TCP Network Models for Grid and
//   Cloud Simulations", ACM TOMACS 23(4), 2013; P.-N. Clauss et al., IPDPS'11) multiply latency
//   and bandwidth by factors, and weigh sharing by RTT with a constant S, all fitted to other
//   testbeds; calibration has no counterpart for them, so S = 0 (even sharing).
// - Efficiency (TransportParams::efficiency, the payload share of the line rate): NIC and
//   switch links carry line rate x efficiency of payload. It is a link capacity rather than
//   SimGrid's per-flow bandwidth factor, because a flow's factor would also derate the other
//   links of its route (a route whose bottleneck is PCIe would lose 5% it does not lose) and
//   would not derate a shared NIC for flows whose own bottleneck lies elsewhere.
// - Size: the alpha-beta split (latency + bytes / bandwidth) already makes the rate a message
//   reaches rise with its size; where a transport falls short of that in the middle sizes (TCP
//   windows after idle, protocol switches), TransportParams::size_curve scales the rate of a
//   transfer between nodes by its size, as SMPI's bandwidth factors do, through the bandwidth
//   factor callback; calibration fits it from a sweep, and its default is flat.
// - Latency: a transfer between nodes pays TransportParams::latency_s, the calibrated one-way
//   GPU-to-GPU latency, whatever links it crosses; inside a node, Fabric::latency_s per hop. CM02
//   weighs each flow's share of a link by the inverse of its route latency (RTT unfairness); so
//   that a PCIe link is shared evenly between a GPU-to-GPU flow and a network flow, every route
//   gets the same nominal latency (access_latency() at each end); the latency factor callback
//   sets it to zero and each flow of the replay waits its real latency before it starts
//   (CommRunner), which lets NCCL's protocols set a hop's latency (the flow takes no share of a
//   link while it waits, as in SimGrid's latency phase).
// - Streams: one transfer between two nodes runs over TransportParams::streams sockets, each
//   bound by stream_bandwidth (kernel TCP: one core's copy and checksum work; RDMA's default has
//   no such limit). The cap is per transfer (a fatpipe link on the node's network path bounds
//   each flow, shares nothing), so concurrent transfers of a node (hierarchical rings, PS shards,
//   several buckets) together fill a NIC that one transfer cannot; the analytical backend caps
//   its fluid flows the same way. network/TCP-gamma = 0: at data-centre RTTs SimGrid's 4 MiB
//   window allows ~80 GB/s; the stream cap binds first.
// - Host staging (TransportParams::host_staging_bandwidth, no GPUDirect): a network transfer
//   with a GPU at one end is capped at it, on top of crossing the GPU's fabric link.
// - network/crosstraffic = 0: TCP acknowledgements would take 5% of the reverse path, a fixed
//   SimGrid constant; efficiency, fitted on bulk transfers, already covers protocol overhead.
// - TransportParams::call_overhead_s is paid once per communication task by the replay, as in
//   the analytical backend: one collective or PS request starts all its transfers at once.
// The InfiniBand model (J. Vienne et al., "A Network Model for the Simulation of InfiniBand
// Clusters", 2014) is not used: its incast penalties are constants fitted to one cluster.
#include "sim/backends/simgrid/transport_model.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <simgrid/kernel/resource/NetworkModelIntf.hpp>
#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Link.hpp>
#include <simgrid/s4u/NetZone.hpp>
#include <xbt/log.h>

#include "sim/backends/simgrid/platform_builder.h"
#include "sim/io/units.h"

XBT_LOG_NEW_DEFAULT_SUBCATEGORY(scalecast_transport, scalecast, "Transport settings and the latency factor");

namespace scalecast::simgrid_backend {

namespace sg4 = simgrid::s4u;

void TransportModel::configure_engine() const {
  sg4::Engine::set_config("network/model:CM02");
  sg4::Engine::set_config("network/crosstraffic:0");
  sg4::Engine::set_config("network/TCP-gamma:0");
  sg4::Engine::set_config("network/weight-S:0");
  XBT_VERB("CM02 sharing without cross-traffic, TCP-gamma or weight-S: links carry their capacity");
}

void TransportModel::install_latency_factor(const Platform& platform) const {
  auto* model = sg4::Engine::get_instance()->get_netzone_root()->get_network_model();
  const Platform* p = &platform;
  // Routes keep their equal nominal latency for CM02's sharing weights, but no flow waits for
  // it: the replay's flows pay their latency themselves (CommRunner: the link's one-way latency,
  // route_latency(), or the hop latency of NCCL's protocol).
  model->set_lat_factor_cb([](double, const sg4::Host*, const sg4::Host*, const std::vector<sg4::Link*>&,
                              const std::unordered_set<sg4::NetZone*>&) { return 0.0; });
  // A transfer between nodes reaches the share of the rates its size allows (the size curve, as
  // SMPI's calibrated bandwidth factors do); transfers inside a node are not affected.
  if (links_.size_curve.empty()) return;
  const SizeCurve curve = links_.size_curve;
  model->set_bw_factor_cb([p, curve](double size, const sg4::Host*, const sg4::Host*,
                                     const std::vector<sg4::Link*>& links, const std::unordered_set<sg4::NetZone*>&) {
    for (const auto* l : links)
      if (p->nic_links.count(l) > 0) return curve.at(size);
    return 1.0;
  });
}

std::vector<std::string> TransportModel::describe() const {
  std::vector<std::string> out;
  out.push_back(
      "network model CM02 (max-min sharing), no crosstraffic, no TCP window; NICs carry " +
      std::to_string(c_.net.efficiency) + " x line rate; " +
      units::format_seconds(links_.network_latency.s()) + " between nodes");
  if (const double cap = links_.gpu_transfer_cap.bytes_per_s(); cap > 0)
    out.push_back(to_string(c_.transport) + ": each network transfer of a GPU capped at " +
                  units::format_rate(cap) + " (streams x stream bandwidth, host staging)");
  return out;
}

}  // namespace scalecast::simgrid_backend
