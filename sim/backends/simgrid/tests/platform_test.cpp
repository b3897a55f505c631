// The generated platform (every route crosses the links it should), the backend's plumbing
// (registry names, errors from the simulating process, timeline layout and notes).
#include <gtest/gtest.h>
#include <xbt/log.h>

#include <cstdio>
#include <map>
#include <set>
#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Host.hpp>
#include <simgrid/s4u/Link.hpp>
#include <string>

#include "sim/backends/backend_registry.h"
#include "sim/backends/simgrid/isolated_run.h"
#include "sim/backends/simgrid/platform_builder.h"
#include "sim/backends/simgrid/register.h"
#include "sim/io/input_error.h"
#include "sim/backends/simgrid/tests/helpers.h"

namespace scalecast {
namespace {

using namespace simgrid_testing;
namespace sg4 = simgrid::s4u;

// The links a route between two endpoints must cross, by name, in the builder's naming scheme.
// `ps_lite`: BytePS over TCP, whose machines' I/O threads are a link and whose servers have no
// per-transfer cap (a GPU end keeps host staging's).
std::set<std::string> expected_links(const Cluster& c, int src, int dst, bool ps_lite) {
  const int gpus = c.gpus(), g = c.gpus_per_node;
  const auto node = [&](int e) { return e < gpus ? e / g : -1; };
  const auto leaf = [&](int e) { return node(e) < 0 ? -1 : node(e) / c.topology.nodes_per_leaf; };
  const auto machine = [&](int e) {
    return e < gpus ? "node" + std::to_string(node(e)) : "server" + std::to_string(e - gpus);
  };
  std::set<std::string> out;
  if (src < gpus) out.insert("gpu" + std::to_string(src) + "-fabric_UP");
  if (dst < gpus) out.insert("gpu" + std::to_string(dst) + "-fabric_DOWN");
  if (src < gpus && dst < gpus && node(src) == node(dst)) {
    out.insert(machine(src) + "-bridge");
    return out;
  }
  if (src < gpus) out.insert(machine(src) + "-bridge");
  if (dst < gpus) out.insert(machine(dst) + "-bridge");
  out.insert(machine(src) + "-nic_UP");
  out.insert(machine(dst) + "-nic_DOWN");
  for (int e : {src, dst}) {
    if (!ps_lite || e < gpus) out.insert(machine(e) + "-transfer-cap");
    if (ps_lite) out.insert(machine(e) + "-io-threads");
  }
  if (leaf(src) >= 0 && leaf(src) != leaf(dst))
    out.insert("leaf" + std::to_string(leaf(src)) + "-uplink_UP");
  if (leaf(dst) >= 0 && leaf(src) != leaf(dst))
    out.insert("leaf" + std::to_string(leaf(dst)) + "-uplink_DOWN");
  return out;
}

// Every route of a leaf-spine cluster with host bridges, TCP caps and dedicated servers.
TEST(SimgridPlatform, EveryRouteCrossesItsLinks) {
  Cluster c = cluster(6, 2, 10, Transport::tcp);
  c.fabric.bridge_bandwidth = Rate(8e9);
  c.topology.kind = TopologyKind::leaf_spine;
  c.topology.nodes_per_leaf = 2;
  const int servers = 2;
  for (const char* method : {"wfbp-allreduce", "wfbp-ps"}) {
    const bool ps_lite = make_preset(method).aggregation == Aggregation::parameter_server;
    const std::string result = simgrid_backend::run_isolated([&] {
      xbt_log_control_set("root.thresh:critical");
      sg4::Engine engine("routes");
      const simgrid_backend::TransportModel transport(c, make_preset(method));
      transport.configure_engine();
      const auto p = simgrid_backend::build_platform(c, servers, transport);
      std::string errors;
      for (size_t a = 0; a < p.endpoints.size(); ++a)
        for (size_t b = 0; b < p.endpoints.size(); ++b) {
          if (a == b) continue;
          std::vector<sg4::Link*> links;
          double latency = 0;
          p.endpoints[a]->route_to(p.endpoints[b], links, &latency);
          std::set<std::string> names;
          for (const auto* l : links) names.insert(l->get_name());
          if (names != expected_links(c, static_cast<int>(a), static_cast<int>(b), ps_lite))
            errors += p.endpoints[a]->get_name() + " -> " + p.endpoints[b]->get_name() + "; ";
        }
      return errors;
    });
    EXPECT_EQ(result, "") << method;
  }
}

TEST(SimgridPlatform, DescriptionShowsCapacitiesCapsAndRouteLatencies) {
  Cluster c = cluster(4, 2, 10, Transport::tcp);
  c.topology.kind = TopologyKind::leaf_spine;
  c.topology.nodes_per_leaf = 2;
  c.topology.oversubscription = 2;
  c.ps.servers = 1;
  const auto j = simgrid_platform(c, make_preset("bsp-ps"), 1);
  std::printf("%s\n", j.dump(1).substr(0, 1500).c_str());
  EXPECT_EQ(j.at("hosts").size(), 9u);
  std::map<std::string, double> bandwidth;
  for (const auto& l : j.at("links")) bandwidth[l.at("name")] = l.at("bandwidth_Bps");
  EXPECT_DOUBLE_EQ(bandwidth.at("node0-nic_UP"), 10 * units::kGbps * 0.94);
  EXPECT_DOUBLE_EQ(bandwidth.at("leaf0-uplink_UP"), 2 * 10 * units::kGbps / 2 * 0.94);
  // BytePS: each transfer is held to host staging alone; ps-lite's ZeroMQ I/O threads, a core
  // each, bound the machines: the worker node's one connection (one server) and the server's
  // four (four worker nodes), both directions together.
  EXPECT_DOUBLE_EQ(bandwidth.at("node0-transfer-cap"), 10 * units::kGBps);
  EXPECT_EQ(bandwidth.count("server0-transfer-cap"), 0u);
  EXPECT_DOUBLE_EQ(bandwidth.at("node0-io-threads"), 25 * units::kGbps);
  EXPECT_DOUBLE_EQ(bandwidth.at("server0-io-threads"), 4 * 25 * units::kGbps);
  std::map<std::string, double> latency;
  for (const auto& r : j.at("routes")) latency[r.at("kind")] = r.at("latency_s");
  EXPECT_DOUBLE_EQ(latency.at("intra-node"), c.fabric.latency.s());
  EXPECT_DOUBLE_EQ(latency.at("inter-node"), c.net.latency.s());
  EXPECT_DOUBLE_EQ(latency.at("inter-leaf"), c.net.latency.s());
  EXPECT_DOUBLE_EQ(latency.at("to-server"), c.net.latency.s());

  // RDMA with GPUDirect: no per-transfer cap anywhere.
  const auto rdma = simgrid_platform(cluster(2, 2, 100, Transport::rdma), Strategy{}, 0);
  for (const auto& l : rdma.at("links"))
    EXPECT_EQ(l.at("name").get<std::string>().find("transfer-cap"), std::string::npos);
}

TEST(SimgridBackendPlumbing, RegistersThreeExpansionModes) {
  register_simgrid_backend();
  for (const std::string name : {"simgrid", "simgrid-full", "simgrid-reduced"})
    EXPECT_EQ(make_backend(name)->name(), name);
}

TEST(SimgridBackendPlumbing, TimelineMirrorsTheSchedule) {
  const Schedule s = push_pull(cluster(2, 2, 10, Transport::tcp), 2, 3, 1e6);
  const Timeline tl = SimgridBackend().run(s);
  ASSERT_EQ(tl.events.size(), s.tasks.size());
  for (size_t i = 0; i < tl.events.size(); ++i) {
    EXPECT_EQ(tl.events[i].task, s.tasks[i].id);
    EXPECT_EQ(tl.events[i].track,
              to_string(s.tasks[i].op) + " server " + std::to_string(s.tasks[i].server));
    EXPECT_LT(tl.events[i].start_s, tl.events[i].end_s);
  }
  EXPECT_EQ(tl.backend, "simgrid");
  EXPECT_FALSE(tl.notes.empty());
  for (const auto& n : tl.notes) std::printf("note: %s\n", n.c_str());
}

TEST(SimgridBackendPlumbing, ErrorsInTheSimulatingProcessReachTheCaller) {
  Schedule s = collective(cluster(2, 1, 10, Transport::tcp), 1e6);
  s.tasks.push_back(comm_task(1, CommOp::allreduce, 1e6));
  s.tasks[0].deps = {1};
  s.tasks[1].deps = {0};  // a cycle: nothing can start
  try {
    SimgridBackend().run(s);
    FAIL() << "a cyclic schedule must not replay";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("dependencies"), std::string::npos) << e.what();
  }
  EXPECT_THROW(
      simgrid_backend::run_isolated([]() -> std::string { throw InputError("boom"); }),
      std::runtime_error);
}

}  // namespace
}  // namespace scalecast
