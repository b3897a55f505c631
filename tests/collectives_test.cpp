// Tests of the all-reduce cost formulas and their point-to-point expansions: the ring formula,
// hierarchical as the sum of its phases, expansions moving the bytes the formulas assume.
#include <gtest/gtest.h>

#include <cmath>
#include <map>

#include "fixtures.h"
#include "sim/collectives/allreduce_cost.h"
#include "sim/collectives/expansion.h"
#include "sim/collectives/link_class.h"

namespace scalecast::collectives {
namespace {

using testing::simple_cluster;

TEST(RingAllreduce, MatchesTheTextbookFormula) {
  // 2(p-1)(a + S/(pB)) for p = 8, S = 100 MB, a = 25 us, B = 1 GB/s.
  const double expected = 2.0 * 7 * (25e-6 + 100e6 / (8 * 1e9));
  EXPECT_NEAR(ring_allreduce_s(8, 100e6, 25e-6, 1e9), expected, 1e-12);
  EXPECT_EQ(ring_allreduce_s(1, 100e6, 25e-6, 1e9), 0.0);
}

TEST(RingAllreduce, ClusterCostUsesTheNetworkOnceNodesAreCrossed) {
  Cluster c = simple_cluster(4, 4);
  const LinkClass net = network_link(c), f = fabric_link(c);
  // 2(n-1) = 6 steps cross the network, 2(p-n) = 24 stay in nodes; all move S/p at network pace.
  const double expected = 6 * net.latency_s + 24 * f.latency_s + 30 * 64e6 / (16 * net.bandwidth) +
                          c.net.call_overhead_s;
  EXPECT_NEAR(allreduce_s(c, AllreduceAlgorithm::ring, 64e6), expected, 1e-12);
  // With one node per GPU every step crosses the network: the textbook formula again.
  Cluster flat = simple_cluster(16, 1);
  const LinkClass fn = network_link(flat);
  EXPECT_NEAR(allreduce_s(flat, AllreduceAlgorithm::ring, 64e6),
              ring_allreduce_s(16, 64e6, fn.latency_s, fn.bandwidth) + flat.net.call_overhead_s, 1e-12);
  // Inside one node the fabric is the only link class.
  Cluster one = simple_cluster(1, 4);
  const LinkClass fo = fabric_link(one);
  EXPECT_NEAR(allreduce_s(one, AllreduceAlgorithm::ring, 64e6),
              ring_allreduce_s(4, 64e6, fo.latency_s, fo.bandwidth) + one.net.call_overhead_s, 1e-12);
}

TEST(HierarchicalAllreduce, CostIsTheSumOfItsThreePhases) {
  Cluster c = simple_cluster(8, 4);
  const HierarchicalPhases ph = hierarchical_phases(c, 100e6);
  EXPECT_GT(ph.reduce_scatter_s, 0);
  EXPECT_GT(ph.inter_node_s, 0);
  EXPECT_DOUBLE_EQ(ph.all_gather_s, ph.reduce_scatter_s);
  EXPECT_NEAR(allreduce_s(c, AllreduceAlgorithm::hierarchical, 100e6),
              ph.reduce_scatter_s + ph.inter_node_s + ph.all_gather_s + c.net.call_overhead_s, 1e-12);
  // The inter-node phase carries bytes/g per GPU over a NIC shared by g GPUs.
  const LinkClass net = network_link(c);
  EXPECT_NEAR(ph.inter_node_s, ring_allreduce_s(8, 25e6, net.latency_s, net.bandwidth / 4), 1e-12);
}

TEST(AutoAllreduce, PicksTreeForSmallMessagesOnManyNodesAndRingForLargeOnes) {
  Cluster c = simple_cluster(32, 4);
  EXPECT_EQ(resolve_allreduce(c, AllreduceAlgorithm::automatic, 4e3), AllreduceAlgorithm::tree);
  EXPECT_EQ(resolve_allreduce(c, AllreduceAlgorithm::automatic, 256e6), AllreduceAlgorithm::ring);
  EXPECT_EQ(resolve_allreduce(simple_cluster(1, 8), AllreduceAlgorithm::automatic, 4e3),
            AllreduceAlgorithm::ring);
  EXPECT_EQ(resolve_allreduce(c, AllreduceAlgorithm::hierarchical, 4e3), AllreduceAlgorithm::hierarchical);
}

TEST(AlphaBeta, FitPassesThroughTheCostAtBothEnds) {
  Cluster c = simple_cluster(2, 4);
  const AlphaBeta ab = fit_alpha_beta(c, AllreduceAlgorithm::ring);
  EXPECT_NEAR(ab.a + ab.b * 64e6, allreduce_s(c, AllreduceAlgorithm::ring, 64e6), 1e-9);
  EXPECT_GT(ab.a, 0);
  EXPECT_GT(ab.b, 0);
}

TEST(Expansion, RingMovesTwoTimesPMinusOneOverPOfTheMessagePerRank) {
  const Expansion e = ring_allreduce(8, 80e6);
  EXPECT_EQ(e.steps.size(), 14u);
  EXPECT_NEAR(e.total_bytes(), 8 * 2.0 * 7 / 8 * 80e6, 1);
}

TEST(Expansion, HalvingDoublingHandlesNonPowersOfTwo) {
  const Expansion e = halving_doubling_allreduce(6, 60e6);
  // fold, log2(4) = 2 halving steps, 2 doubling steps, unfold.
  EXPECT_EQ(e.steps.size(), 6u);
  for (const auto& step : e.steps)
    for (const auto& t : step) {
      EXPECT_LT(t.src, 6);
      EXPECT_LT(t.dst, 6);
      EXPECT_NE(t.src, t.dst);
    }
}

TEST(Expansion, HierarchicalStaysInsideNodesExceptTheMiddlePhase) {
  const int nodes = 4, g = 4;
  const Expansion e = hierarchical_allreduce(nodes, g, 64e6);
  ASSERT_EQ(e.steps.size(), static_cast<size_t>(2 * (g - 1) + 2 * (nodes - 1)));
  for (size_t s = 0; s < e.steps.size(); ++s) {
    const bool middle = s >= static_cast<size_t>(g - 1) && s < static_cast<size_t>(g - 1 + 2 * (nodes - 1));
    for (const auto& t : e.steps[s]) EXPECT_EQ(t.src / g != t.dst / g, middle) << "step " << s;
  }
}

TEST(Expansion, TreeReachesEveryNodeAndReturns) {
  const Expansion e = tree_allreduce(5, 2, 10e6);
  std::vector<int> received(10, 0);
  for (const auto& step : e.steps)
    for (const auto& t : step) ++received[t.dst];
  for (int r = 0; r < 10; ++r) EXPECT_GT(received[r], 0) << "rank " << r;
}

TEST(Expansion, NodeLocalReduceIsAPipelinedChainCarryingTheMessageOncePerLink) {
  Schedule s;
  s.cluster = testing::simple_cluster(2, 4);
  s.strategy = make_preset("wfbp-ps");
  s.cluster.ps.servers = 1;
  Task push;
  push.kind = TaskKind::comm;
  push.op = CommOp::push;
  push.bytes = 8e6;
  push.server = 0;
  const Expansion e = expand(s, push);
  std::map<int, double> into;  // bytes into each GPU rank over the fabric
  for (const auto& step : e.steps)
    for (const auto& t : step)
      if (t.dst < s.gpus()) into[t.dst] += t.bytes;
  EXPECT_DOUBLE_EQ(into[0], 8e6);  // not 3 x 8 MB as a gather to GPU 0 would put there
  EXPECT_DOUBLE_EQ(into[4], 8e6);
  // Server traffic: one full partition per node, in the last step.
  double to_server = 0;
  for (const auto& t : e.steps.back()) to_server += t.dst == s.gpus() ? t.bytes : 0;
  EXPECT_DOUBLE_EQ(to_server, 2 * 8e6);
  // 8 chunks over 3 hops: 10 pipelined steps, then the network step.
  EXPECT_EQ(e.steps.size(), 11u);
}

}  // namespace
}  // namespace scalecast::collectives
