// Builds the S4U platform of a cluster (zones, hosts, links, routes) and describes it as JSON.
// Star zones keep routing linear in the size of the cluster: no table of GPU-to-GPU routes.
#include "sim/backends/simgrid/platform_builder.h"

#include <algorithm>
#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Host.hpp>
#include <simgrid/s4u/Link.hpp>
#include <simgrid/s4u/NetZone.hpp>
#include <xbt/log.h>
#include <string>

XBT_LOG_NEW_DEFAULT_SUBCATEGORY(scalecast_platform, scalecast, "The generated platform: hosts, links, routes");

namespace scalecast::simgrid_backend {
namespace {

namespace sg4 = simgrid::s4u;
using Dir = sg4::LinkInRoute::Direction;

sg4::SplitDuplexLink* duplex(sg4::NetZone* zone, const std::string& name, double bandwidth,
                             double latency_s) {
  auto* link = zone->create_split_duplex_link(name, bandwidth);
  link->set_latency(latency_s);
  link->seal();
  return link;
}

class Builder {
 public:
  Builder(const Cluster& c, int servers, const TransportModel& transport, SharedLinkScale scale)
      : c_(c), servers_(servers), transport_(transport), scale_(scale) {}

  Platform build() {
    p_.gpus = c_.gpus();
    p_.endpoints.resize(c_.gpus() + servers_);
    const LinkCapacities& l = transport_.links();
    const bool leaves = l.leaf_uplink > Rate();
    auto* top = sg4::create_star_zone(leaves ? "spine" : "switch");
    if (leaves) {
      const int per_leaf = l.nodes_per_leaf;
      const int leaf_count = (c_.nodes + per_leaf - 1) / per_leaf;
      const double uplink = scale_.leaf_uplink * l.leaf_uplink.bytes_per_s();
      for (int k = 0; k < leaf_count; ++k) {
        const std::string leaf_name = "leaf" + std::to_string(k);
        auto* leaf = sg4::create_star_zone(leaf_name);
        leaf->set_parent(top);
        // SimGrid 3.32's star zone misroutes where it holds both zones and hosts or routers,
        // so the leaf switch (the leaf's gateway) sits in a zone of its own.
        auto* switch_zone = sg4::create_star_zone(leaf_name + "-switch");
        switch_zone->set_parent(leaf);
        auto* sw = switch_zone->create_router(leaf_name + "-switch-router");
        switch_zone->seal();
        leaf->add_route(switch_zone->get_netpoint(), nullptr, sw, nullptr, {}, true);
        for (int n = k * per_leaf; n < std::min(c_.nodes, (k + 1) * per_leaf); ++n)
          add_node(leaf, n);
        leaf->seal();
        auto* up = duplex(top, leaf_name + "-uplink", uplink, 0);
        top->add_route(leaf->get_netpoint(), nullptr, sw, nullptr, {sg4::LinkInRoute(up, Dir::UP)},
                       true);
      }
    } else {
      for (int n = 0; n < c_.nodes; ++n) add_node(top, n);
    }
    const double server_nic = scale_.server_nic * l.server_nic_payload.bytes_per_s();
    // Each server gets a zone of its own, so that the top zone holds zones only (see above).
    for (int s = 0; s < servers_; ++s) {
      const std::string name = "server" + std::to_string(s);
      auto* zone = sg4::create_star_zone(name);
      zone->set_parent(top);
      auto* router = zone->create_router(name + "-router");
      auto* host = zone->create_host(name, 1.0);
      host->seal();
      zone->seal();
      top->add_route(zone->get_netpoint(), nullptr, router, nullptr,
                     network_path(top, name, server_nic, l.server_transfer_cap.bytes_per_s(),
                                  scale_.server_nic * l.ps_server_io.bytes_per_s(),
                                  transport_.access_latency()),
                     true);
      p_.endpoints[c_.gpus() + s] = host;
    }
    top->seal();
    return std::move(p_);
  }

 private:
  void add_node(sg4::NetZone* parent, int n) {
    const std::string node = "node" + std::to_string(n);
    auto* zone = sg4::create_star_zone(node);
    zone->set_parent(parent);
    auto* router = zone->create_router(node + "-router");
    sg4::Link* bridge = nullptr;
    const LinkCapacities& l = transport_.links();
    if (l.bridge_bandwidth > Rate()) {
      bridge = zone->create_link(node + "-bridge", l.bridge_bandwidth.bytes_per_s());
      bridge->set_sharing_policy(sg4::Link::SharingPolicy::SHARED);
      bridge->seal();
    }
    for (int i = 0; i < c_.gpus_per_node; ++i) {
      const int rank = n * c_.gpus_per_node + i;
      const std::string name = "gpu" + std::to_string(rank);
      auto* host = zone->create_host(name, 1.0);
      host->seal();
      auto* fabric =
          duplex(zone, name + "-fabric", l.fabric_bandwidth.bytes_per_s(), transport_.access_latency());
      std::vector<sg4::LinkInRoute> up{sg4::LinkInRoute(fabric, Dir::UP)};
      if (bridge) up.emplace_back(bridge);
      zone->add_route(host->get_netpoint(), nullptr, nullptr, nullptr, up, true);
      p_.endpoints[rank] = host;
    }
    zone->seal();
    parent->add_route(
        zone->get_netpoint(), nullptr, router, nullptr,
        network_path(parent, node, l.nic_payload.bytes_per_s(), l.gpu_transfer_cap.bytes_per_s(),
                     l.ps_worker_io.bytes_per_s(), 0),
        true);
  }

  // The links a machine's traffic crosses to its switch: per-transfer cap, the host cores that
  // copy its network data both ways (ps-lite's I/O threads; 0: none), then the NIC (its payload
  // capacity).
  std::vector<sg4::LinkInRoute> network_path(sg4::NetZone* zone, const std::string& name,
                                             double payload, double cap, double io, double latency_s) {
    std::vector<sg4::LinkInRoute> path;
    if (cap > 0) {
      auto* fatpipe = zone->create_link(name + "-transfer-cap", cap);
      fatpipe->set_sharing_policy(sg4::Link::SharingPolicy::FATPIPE);
      fatpipe->seal();
      path.emplace_back(fatpipe);
    }
    if (io > 0) {
      auto* cores = zone->create_link(name + "-io-threads", io);
      cores->set_sharing_policy(sg4::Link::SharingPolicy::SHARED);
      cores->seal();
      path.emplace_back(cores);
    }
    auto* nic = duplex(zone, name + "-nic", payload, latency_s);
    p_.nic_links.insert(nic->get_link_up());
    p_.nic_links.insert(nic->get_link_down());
    path.emplace_back(nic, Dir::UP);
    return path;
  }

  const Cluster& c_;
  int servers_;
  const TransportModel& transport_;
  SharedLinkScale scale_;
  Platform p_;
};

std::string sharing_name(sg4::Link::SharingPolicy s) {
  switch (s) {
    case sg4::Link::SharingPolicy::SHARED:
      return "shared";
    case sg4::Link::SharingPolicy::FATPIPE:
      return "fatpipe";
    case sg4::Link::SharingPolicy::SPLITDUPLEX:
      return "splitduplex";
    case sg4::Link::SharingPolicy::WIFI:
      return "wifi";
    case sg4::Link::SharingPolicy::NONLINEAR:
      return "nonlinear";
  }
  return "unknown";
}

nlohmann::json route_json(const Platform& p, const TransportModel& transport, int src, int dst,
                          const std::string& kind) {
  std::vector<sg4::Link*> links;
  double nominal = 0;
  p.endpoints[src]->route_to(p.endpoints[dst], links, &nominal);
  const bool network =
      std::any_of(links.begin(), links.end(), [&](auto* l) { return p.nic_links.count(l) > 0; });
  const double latency = transport.route_latency(network);
  nlohmann::json names = nlohmann::json::array();
  for (const auto* l : links) names.push_back(l->get_name());
  return {{"kind", kind},
          {"src", p.endpoints[src]->get_name()},
          {"dst", p.endpoints[dst]->get_name()},
          {"links", names},
          {"latency_s", latency}};
}

}  // namespace

Platform build_platform(const Cluster& cluster, int servers, const TransportModel& transport,
                        SharedLinkScale scale) {
  Platform p = Builder(cluster, servers, transport, scale).build();
  XBT_VERB("platform: %zu hosts, %zu links", sg4::Engine::get_instance()->get_host_count(),
           sg4::Engine::get_instance()->get_link_count());
  return p;
}

nlohmann::json describe_platform(const Platform& p, const TransportModel& transport) {
  nlohmann::json hosts = nlohmann::json::array(), links = nlohmann::json::array();
  for (size_t e = 0; e < p.endpoints.size(); ++e)
    hosts.push_back({{"name", p.endpoints[e]->get_name()},
                     {"endpoint", e},
                     {"role", p.is_gpu(static_cast<int>(e)) ? "gpu" : "server"}});
  auto all = sg4::Engine::get_instance()->get_all_links();
  std::sort(all.begin(), all.end(), [](auto* a, auto* b) { return a->get_name() < b->get_name(); });
  for (const auto* l : all)
    links.push_back({{"name", l->get_name()},
                     {"bandwidth_Bps", l->get_bandwidth()},
                     {"nominal_latency_s", l->get_latency()},
                     {"sharing", sharing_name(l->get_sharing_policy())},
                     {"nic", p.nic_links.count(l) > 0}});
  // One route of each kind the platform has; the rest follow by symmetry.
  nlohmann::json routes = nlohmann::json::array();
  const int gpus = p.gpus;
  const auto node_of = [&](int r) { return p.endpoints[r]->get_englobing_zone(); };
  if (gpus > 1 && node_of(0) == node_of(1))
    routes.push_back(route_json(p, transport, 0, 1, "intra-node"));
  bool inter_node = false, inter_leaf = false;
  for (int r = 1; r < gpus && !(inter_node && inter_leaf); ++r) {
    if (node_of(r) == node_of(0)) continue;
    bool& seen = node_of(r)->get_parent() == node_of(0)->get_parent() ? inter_node : inter_leaf;
    if (!seen)
      routes.push_back(
          route_json(p, transport, 0, r, &seen == &inter_node ? "inter-node" : "inter-leaf"));
    seen = true;
  }
  if (static_cast<int>(p.endpoints.size()) > gpus)
    routes.push_back(route_json(p, transport, 0, gpus, "to-server"));
  return {{"hosts", hosts},
          {"links", links},
          {"routes", routes},
          {"latency",
           "link latencies are nominal (equal sharing penalties); a route's latency_s is what a "
           "transfer pays"}};
}

}  // namespace scalecast::simgrid_backend
