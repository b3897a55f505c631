// The replay's reductions against the full expansion: the symmetry block of ring and
// hierarchical all-reduce at 32 GPUs, and parameter-server traffic replayed for one node.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>

#include "sim/schedules/schedule_builder.h"
#include "sim/backends/simgrid/flow_graph.h"
#include "sim/backends/steady_state.h"
#include "sim/backends/simgrid/tests/helpers.h"

namespace scalecast {
namespace {

using namespace simgrid_testing;
using simgrid_backend::ExpansionMode;

Workload mixed_workload() {
  Workload w;
  w.model = "mixed";
  w.batch_per_gpu = 32;
  for (int l = 0; l < 16; ++l) {
    Layer layer;
    layer.name = "layer" + std::to_string(l);
    layer.kind = "conv";
    layer.forward_s = 1e-3;
    layer.backward_s = 2e-3;
    const int64_t bytes = l % 4 == 0 ? 9437184 : (l % 4 == 1 ? 2048 : 1048576);
    layer.grads.push_back({layer.name + ".weight", bytes / 4, bytes});
    w.layers.push_back(layer);
  }
  return w;
}

double iteration_s(const Schedule& s, ExpansionMode mode) {
  simgrid_backend::ReplayOptions options;
  options.expansion = mode;
  const auto r = SimgridBackend(options).run_with_stats(s);
  std::printf("  %-8s %.9f s/iteration, %llu flows for %llu transfers, %.3f s wall\n",
              mode == ExpansionMode::full ? "full" : "reduced",
              steady_state(s, r.timeline).iteration_s,
              static_cast<unsigned long long>(r.stats.transfers_simulated),
              static_cast<unsigned long long>(r.stats.transfers_expanded), r.stats.wall_s);
  return steady_state(s, r.timeline).iteration_s;
}

// (e) 32 GPUs (8 nodes x 4), wfbp all-reduce with ring and hierarchical algorithms: the reduced
// replay simulates one node's flows and the flows into it. Without a shared host bridge every
// link those flows cross carries the same load as in the full replay: stated tolerance 1e-6.
// With a bridge the neighbours' bridges are lighter than in full; a flow's bottleneck is then
// still its mirror image inside node 0, but that is not proven in general: tolerance 5%.
TEST(SimgridReduction, SymmetryBlockMatchesFullAt32Gpus) {
  for (const std::string algorithm : {"ring", "hierarchical"})
    for (double bridge : {0.0, 3e9}) {
      Cluster c = cluster(8, 4, 25, Transport::tcp);
      c.fabric.bridge_bandwidth = Rate(bridge);
      Strategy st = make_preset("wfbp-allreduce");
      st.algorithm = algorithm;
      const Schedule s = build_schedule(mixed_workload(), c, st, 2);
      std::printf("%s all-reduce, %s:\n", algorithm.c_str(),
                  bridge > 0 ? "3 GB/s host bridge" : "no bridge");
      const double full = iteration_s(s, ExpansionMode::full),
                   reduced = iteration_s(s, ExpansionMode::reduced);
      const double error = std::abs(reduced / full - 1);
      std::printf("  relative difference %.2e\n", error);
      EXPECT_LT(error, bridge > 0 ? 0.05 : 1e-6) << algorithm << (bridge > 0 ? " with bridge" : "");
    }
}

TEST(SimgridReduction, AutomaticModeReducesOnlyAboveThreshold) {
  const Workload w = mixed_workload();
  const Strategy st = make_preset("wfbp-allreduce");
  for (int nodes : {4, 8}) {
    const Schedule s = build_schedule(w, cluster(nodes, 4, 10, Transport::tcp), st, 2);
    const auto r = SimgridBackend().run_with_stats(s);
    EXPECT_EQ(r.stats.reduced, nodes * 4 > 16) << nodes * 4 << " GPUs";
    bool noted = false;
    for (const auto& n : r.timeline.notes)
      noted = noted || n.find("reduction:") != std::string::npos;
    EXPECT_EQ(noted, r.stats.reduced);
  }
}

// Parameter-server traffic replayed for node 0 only, server NICs and leaf uplinks at node 0's
// share: exact, since every node moves every partition alike. Colocated servers break that
// symmetry and are replayed in full.
TEST(SimgridReduction, OneNodeParameterServerMatchesFull) {
  Cluster spine = cluster(8, 2, 10, Transport::tcp);
  spine.topology.kind = TopologyKind::leaf_spine;
  spine.topology.nodes_per_leaf = 4;
  spine.topology.oversubscription = 2;
  for (const Cluster& c :
       {cluster(8, 2, 10, Transport::tcp), cluster(8, 2, 100, Transport::rdma), spine})
    for (bool local_reduce : {true, false}) {
      const Schedule s = push_pull(c, 3, 12, 4e6, local_reduce);
      const double full = simgrid_s(s, ExpansionMode::full),
                   reduced = simgrid_s(s, ExpansionMode::reduced);
      std::printf("%-11s %-5s %-12s full %.9f s, reduced %.9f s\n", to_string(c.topology.kind).c_str(),
                  to_string(c.transport).c_str(), local_reduce ? "local reduce" : "every GPU", full,
                  reduced);
      EXPECT_NEAR(reduced / full, 1, 1e-6);
    }
  Schedule colocated = push_pull(cluster(8, 2, 10, Transport::tcp), 3, 12, 4e6);
  colocated.cluster.ps.placement = Placement::colocated;
  simgrid_backend::ReplayOptions options;
  options.expansion = ExpansionMode::reduced;
  EXPECT_FALSE(SimgridBackend(options).run_with_stats(colocated).stats.reduced);
}

TEST(SimgridFlowGraph, RingTransfersWaitForTheChunkTheyForward) {
  const auto g = simgrid_backend::full_graph(collectives::allreduce_algorithm("ring").expand(1, 4, 4e6));
  ASSERT_EQ(g.flows.size(), 24u);
  for (size_t i = 0; i < 4; ++i) EXPECT_EQ(g.flows[i].deps, 0);
  for (size_t i = 4; i < g.flows.size(); ++i) {
    EXPECT_EQ(g.flows[i].deps, 1);
    EXPECT_EQ(g.flows[i].bytes, 1e6);
  }
  // Step 1 of rank 1 forwards what rank 0 sent it in step 0.
  EXPECT_EQ(g.flows[0].next, std::vector<int>{5});
}

TEST(SimgridFlowGraph, BlockKeepsOneNodeAndTheFlowsIntoIt) {
  const auto e = collectives::allreduce_algorithm("ring").expand(1, 16, 16e6);
  const auto g = simgrid_backend::block_graph(e, 4, 16);
  EXPECT_EQ(g.expanded, 16u * 30u);
  EXPECT_EQ(g.representatives(), 4u * 30u);
  EXPECT_EQ(g.flows.size(), 5u * 30u);  // plus the flow from the previous node, every step
  EXPECT_THROW(simgrid_backend::block_graph(collectives::allreduce_algorithm("tree").expand(4, 4, 16e6), 4, 16),
               std::logic_error);
}

}  // namespace
}  // namespace scalecast
