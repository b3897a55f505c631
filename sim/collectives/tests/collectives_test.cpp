// Tests of the registered all-reduce algorithms' closed forms on hand-computable clusters, the
// library's choice ("auto"), MG-WFBP's alpha-beta line, and the expansions' shapes and bytes.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <set>

#include "tests/fixtures.h"
#include "sim/collectives/algorithm_choice.h"
#include "sim/collectives/expansion.h"
#include "sim/io/input_error.h"
#include "sim/network/nccl/nccl_collective.h"
#include "sim/collectives/pipelined_chain.h"
#include "sim/network/link_capacities.h"

namespace scalecast::collectives {
namespace {

using testing::simple_cluster;

double cost(const char* algorithm, const Cluster& c, double bytes) {
  return allreduce_algorithm(algorithm).cost_s(link_capacities(c, Strategy{}), bytes);
}

TEST(Registry, ListsEveryAlgorithmOnceAndRefusesUnknownNames) {
  std::set<std::string> names;
  for (const AllreduceAlgorithm* a : allreduce_algorithms()) EXPECT_TRUE(names.insert(a->name).second) << a->name;
  EXPECT_EQ(names, (std::set<std::string>{"ring", "tree", "halving-doubling", "hierarchical", "nccl"}));
  EXPECT_THROW(allreduce_algorithm("rings"), InputError);
  EXPECT_EQ(find_allreduce("auto"), nullptr);
  EXPECT_NO_THROW(check_allreduce_choice("auto"));
  EXPECT_THROW(check_allreduce_choice("butterfly"), InputError);
}

TEST(RingAllreduce, MatchesTheTextbookFormulaOnOneLinkClass) {
  // One GPU per node: every step crosses the network, 2(p-1)(a + S/(pB)).
  const Cluster flat = simple_cluster(8, 1);
  const LinkClass n = link_capacities(flat, Strategy{}).network_link();
  EXPECT_NEAR(cost("ring", flat, 100e6), 2.0 * 7 * (n.latency.s() + 100e6 / (8 * n.bandwidth.bytes_per_s())), 1e-12);
  // One node: the fabric only.
  const Cluster one = simple_cluster(1, 4);
  const LinkClass f = link_capacities(one, Strategy{}).fabric_link();
  EXPECT_NEAR(cost("ring", one, 64e6), 2.0 * 3 * (f.latency.s() + 64e6 / (4 * f.bandwidth.bytes_per_s())), 1e-12);
  EXPECT_EQ(cost("ring", simple_cluster(1, 1), 64e6), 0.0);
}

TEST(RingAllreduce, ClusterCostUsesTheNetworkOnceNodesAreCrossed) {
  const Cluster c = simple_cluster(4, 4);
  const LinkCapacities l = link_capacities(c, Strategy{});
  const LinkClass net = l.network_link(), f = l.fabric_link();
  // 2(n-1) = 6 steps cross the network, 2(p-n) = 24 stay in nodes; all move S/p at network pace.
  const double expected = 6 * net.latency.s() + 24 * f.latency.s() + 30 * 64e6 / (16 * net.bandwidth.bytes_per_s());
  EXPECT_NEAR(cost("ring", c, 64e6), expected, 1e-12);
  EXPECT_NEAR(allreduce_s(l, allreduce_algorithm("ring"), 64e6), expected + c.net.call_overhead.s(), 1e-12);
}

TEST(RingAllreduce, MessageWorkGrowsWithTheNodesThatShareACore) {
  // 4 nodes on 2 shared cores: each step between nodes pays the latency and twice a message's
  // CPU work (two nodes' work per core); a real cluster (no shared cores) pays it once.
  Cluster c = simple_cluster(4, 1);
  c.net.latency = Seconds(10e-6);
  c.net.message_overhead = Seconds(30e-6);
  EXPECT_NEAR(link_capacities(c, Strategy{}).network_latency.s(), 40e-6, 1e-15);
  c.shared_cores = 2;
  EXPECT_NEAR(link_capacities(c, Strategy{}).network_latency.s(), 70e-6, 1e-15);
  const double bandwidth = link_capacities(c, Strategy{}).network_link().bandwidth.bytes_per_s();
  EXPECT_NEAR(cost("ring", c, 4096), 6 * (70e-6 + 1024 / bandwidth), 1e-12);
  // As many cores as nodes, or more: no node waits for a core.
  c.shared_cores = 8;
  EXPECT_NEAR(link_capacities(c, Strategy{}).network_latency.s(), 40e-6, 1e-15);
}

TEST(HierarchicalAllreduce, IsTheSumOfItsThreePhases) {
  const Cluster c = simple_cluster(8, 4);
  const LinkCapacities l = link_capacities(c, Strategy{});
  const LinkClass net = l.network_link(), f = l.fabric_link();
  const double intra = 3 * (f.latency.s() + 100e6 / (4 * f.bandwidth.bytes_per_s()));
  // 4 rings of 25 MB among 8 nodes, each at a quarter of the NIC.
  const double inter = 2.0 * 7 * (net.latency.s() + 25e6 / (8 * net.bandwidth.bytes_per_s() / 4));
  EXPECT_NEAR(cost("hierarchical", c, 100e6), 2 * intra + inter, 1e-12);
}

TEST(TreeAllreduce, FollowsNcclsTunerFormula) {
  const Cluster c = simple_cluster(8, 4);
  const LinkCapacities l = link_capacities(c, Strategy{});
  const LinkClass net = l.network_link(), f = l.fabric_link();
  const double latency = 2 * (3 * f.latency.s() + 3 * net.latency.s());  // log2(8) = 3 levels
  EXPECT_NEAR(cost("tree", c, 64e6), latency + 64e6 / (0.45 * net.bandwidth.bytes_per_s()), 1e-12);
}

TEST(HalvingDoublingAllreduce, PaysEachExchangeTwiceAndFoldsExtraRanks) {
  // 4 nodes x 1 GPU: halving distances 2 and 1 (chunks S/2, S/4), mirrored by the doubling.
  const Cluster c = simple_cluster(4, 1);
  const LinkClass n = link_capacities(c, Strategy{}).network_link();
  const double expected = 2 * (n.latency.s() + 32e6 / n.bandwidth.bytes_per_s()) + 2 * (n.latency.s() + 16e6 / n.bandwidth.bytes_per_s());
  EXPECT_NEAR(cost("halving-doubling", c, 64e6), expected, 1e-12);
  // 6 ranks: the same on 4, plus a fold of the whole message before and after.
  const Cluster six = simple_cluster(6, 1);
  const LinkClass n6 = link_capacities(six, Strategy{}).network_link();
  EXPECT_NEAR(cost("halving-doubling", six, 64e6),
              2 * (n6.latency.s() + 32e6 / n6.bandwidth.bytes_per_s()) + 2 * (n6.latency.s() + 16e6 / n6.bandwidth.bytes_per_s()) +
                  2 * (n6.latency.s() + 64e6 / n6.bandwidth.bytes_per_s()),
              1e-12);
}

TEST(AutoAllreduce, IsTheLibrarysOwnChoice) {
  // NCCL on a catalog GPU: its model, the one `scalecast collective` times with.
  const LinkCapacities nccl = link_capacities(simple_cluster(32, 4), Strategy{});
  ASSERT_TRUE(nccl.nccl);
  EXPECT_STREQ(choose_allreduce(nccl, "auto", 4e3).name, "nccl");
  EXPECT_EQ(allreduce_s(nccl, choose_allreduce(nccl, "auto", 64e6), 64e6),
            nccl.nccl->time(CollectiveOp::all_reduce, 64e6).seconds);
  EXPECT_STREQ(choose_allreduce(nccl, "hierarchical", 4e3).name, "hierarchical");
  // Gloo: its ring.
  Strategy gloo;
  gloo.library = CollectiveLibrary::gloo;
  const LinkCapacities ring = link_capacities(simple_cluster(32, 4), gloo);
  EXPECT_FALSE(ring.nccl);
  EXPECT_STREQ(choose_allreduce(ring, "auto", 4e3).name, "ring");
  // NCCL on a GPU outside the catalog: the cheaper closed form, ring inside one node.
  Cluster unknown = simple_cluster(32, 4);
  unknown.gpu = "a-gpu-of-its-own";
  const LinkCapacities many = link_capacities(unknown, Strategy{});
  EXPECT_FALSE(many.nccl);
  EXPECT_STREQ(choose_allreduce(many, "auto", 4e3).name, "tree");
  EXPECT_STREQ(choose_allreduce(many, "auto", 256e6).name, "ring");
  Cluster one_node = simple_cluster(1, 8);
  one_node.gpu = unknown.gpu;
  EXPECT_STREQ(choose_allreduce(link_capacities(one_node, Strategy{}), "auto", 4e3).name, "ring");
  EXPECT_THROW(allreduce_s(many, allreduce_algorithm("nccl"), 4e3), InputError);
}

TEST(AlphaBeta, FitPassesThroughTheCostAtBothEnds) {
  const LinkCapacities l = link_capacities(simple_cluster(2, 4), Strategy{});
  const AlphaBeta ab = fit_alpha_beta(l, "ring");
  EXPECT_NEAR(ab.a + ab.b * 64e6, allreduce_s(l, allreduce_algorithm("ring"), 64e6), 1e-9);
  EXPECT_GT(ab.a, 0);
  EXPECT_GT(ab.b, 0);
}

TEST(Expansion, RingMovesTwoTimesPMinusOneOverPOfTheMessagePerRank) {
  const Expansion e = allreduce_algorithm("ring").expand(1, 8, 80e6);
  EXPECT_EQ(e.steps.size(), 14u);
  EXPECT_NEAR(e.total_bytes(), 8 * 2.0 * 7 / 8 * 80e6, 1);
}

TEST(Expansion, HalvingDoublingHandlesNonPowersOfTwo) {
  const Expansion e = allreduce_algorithm("halving-doubling").expand(6, 1, 60e6);
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
  const Expansion e = allreduce_algorithm("hierarchical").expand(nodes, g, 64e6);
  ASSERT_EQ(e.steps.size(), static_cast<size_t>(2 * (g - 1) + 2 * (nodes - 1)));
  for (size_t s = 0; s < e.steps.size(); ++s) {
    const bool middle = s >= static_cast<size_t>(g - 1) && s < static_cast<size_t>(g - 1 + 2 * (nodes - 1));
    for (const auto& t : e.steps[s]) EXPECT_EQ(t.src / g != t.dst / g, middle) << "step " << s;
  }
}

TEST(Expansion, TreeReachesEveryNodeAndReturns) {
  const Expansion e = allreduce_algorithm("tree").expand(5, 2, 10e6);
  std::vector<int> received(10, 0);
  for (const auto& step : e.steps)
    for (const auto& t : step) ++received[t.dst];
  for (int r = 0; r < 10; ++r) EXPECT_GT(received[r], 0) << "rank " << r;
}

TEST(Expansion, AllReduceTasksExpandByTheirAlgorithm) {
  Schedule s;
  s.cluster = simple_cluster(2, 2);
  Task t;
  t.kind = TaskKind::comm;
  t.op = CommOp::allreduce;
  t.bytes = 8e6;
  EXPECT_THROW(expand(s, t), std::logic_error);  // no algorithm
  t.algorithm = &allreduce_algorithm("ring");
  EXPECT_EQ(expand(s, t).steps.size(), 6u);
}

TEST(Expansion, BytePsPushReduceScattersInsideNodesThenEachGpuPushesItsShard) {
  Schedule s;
  s.cluster = testing::simple_cluster(2, 4);
  s.strategy = make_preset("wfbp-ps");
  s.cluster.ps.servers = 1;
  Task push;
  push.kind = TaskKind::comm;
  push.op = CommOp::push;
  push.bytes = 8e6;
  push.server = 0;
  const TransferStages st = transfer_stages(s, push);
  // A ring reduce-scatter in every node: 3 steps, each GPU sends a quarter of the partition.
  ASSERT_EQ(st.before.steps.size(), 3u);
  for (const auto& step : st.before.steps) {
    EXPECT_EQ(step.size(), 8u);
    for (const auto& t : step) {
      EXPECT_EQ(t.src / 4, t.dst / 4);
      EXPECT_DOUBLE_EQ(t.bytes, 2e6);
    }
  }
  // Then each GPU sends its quarter (the shard it copied to the host) to the server; nothing after.
  ASSERT_EQ(st.network.steps.size(), 1u);
  EXPECT_EQ(st.network.steps[0].size(), 8u);
  for (const auto& t : st.network.steps[0]) {
    EXPECT_EQ(t.dst, s.gpus());
    EXPECT_DOUBLE_EQ(t.bytes, 2e6);
  }
  EXPECT_TRUE(st.after.steps.empty());
  // A pull mirrors it: network first, then the all-gather.
  push.op = CommOp::pull;
  const TransferStages pull = transfer_stages(s, push);
  EXPECT_TRUE(pull.before.steps.empty());
  EXPECT_EQ(pull.after.steps.size(), 3u);
  EXPECT_EQ(expand(s, push).steps.size(), 4u);
}

TEST(Expansion, TransferCountIsWhatTheExpansionHoldsWithoutExpanding) {
  for (const auto& [nodes, g] : std::vector<std::pair<int, int>>{{1, 1}, {1, 4}, {3, 1}, {2, 4}, {5, 3}, {4, 8}})
    for (double bytes : {0.0, 1e3, 3e6, 1e9}) {
      Schedule s;
      s.cluster = testing::simple_cluster(nodes, g);
      s.cluster.ps.gpus_per_server = 0;
      Task t;
      t.kind = TaskKind::comm;
      t.bytes = bytes;
      t.server = nodes - 1;
      for (const auto* a : allreduce_algorithms()) {
        t.op = CommOp::allreduce;
        t.algorithm = a;
        EXPECT_EQ(transfer_count(s, t), static_cast<double>(expand(s, t).transfer_count())) << a->name;
      }
      t.algorithm = nullptr;
      for (CommOp op : {CommOp::push, CommOp::pull, CommOp::reduce, CommOp::broadcast})
        for (Placement placement : {Placement::dedicated, Placement::colocated})
          for (bool local : {false, true}) {
            t.op = op;
            s.cluster.ps.placement = placement;
            s.strategy.node_local_reduce = local;
            EXPECT_EQ(transfer_count(s, t), static_cast<double>(expand(s, t).transfer_count()))
                << to_string(op) << " on " << nodes << "x" << g << (local ? " node-local" : "");
          }
    }
}

TEST(Expansion, AServerTheClusterLacksIsRefused) {
  Schedule s;
  s.cluster = testing::simple_cluster(2, 2);
  s.cluster.ps.servers = 2;
  EXPECT_THROW(server_endpoint(s, 2), std::out_of_range);
  EXPECT_THROW(server_endpoint(s, -1), std::out_of_range);
  EXPECT_EQ(server_endpoint(s, 1), 5);
}

TEST(PipelinedChain, ChunksOf512KiBAndTheSlowestHopSetsThePace) {
  EXPECT_EQ(chain_chunks(100), 1);
  EXPECT_EQ(chain_chunks(4 * 1024 * 1024), 8);
  EXPECT_EQ(chain_chunks(1e12), 64);
  // 4 GPUs in one node, 4 MiB: 3 hops of 512 KiB chunks, (8 + 2) chunk times.
  const LinkCapacities l = link_capacities(simple_cluster(1, 4), Strategy{});
  const LinkClass f = l.fabric_link();
  const double chunk = 512 * 1024 / f.bandwidth.bytes_per_s() + f.latency.s();
  EXPECT_NEAR(pipelined_chain_s(l, 4 * 1024 * 1024), 10 * chunk, 1e-12);
  const Expansion e = pipelined_chain(4, 4 * 1024 * 1024, true);
  EXPECT_EQ(e.steps.size(), 10u);
  std::map<int, double> into;
  for (const auto& step : e.steps)
    for (const auto& t : step) into[t.dst] += t.bytes;
  EXPECT_DOUBLE_EQ(into[0], 4 * 1024 * 1024);  // each link carries the message once
  EXPECT_DOUBLE_EQ(into[1], 4 * 1024 * 1024);
}

}  // namespace
}  // namespace scalecast::collectives
