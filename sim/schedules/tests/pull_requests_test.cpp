// ps-lite's pull requests (sim/schedules/ps_connections.h): a worker's pull starts with a request sent over
// its one connection to the server, behind the pushes queued there; Gloo's executor has none.
#include <gtest/gtest.h>

#include "sim/backends/analytical/analytical_backend.h"
#include "sim/catalogs/mechanisms.h"
#include "sim/schedules/ps_connections.h"
#include "sim/types/strategy.h"
#include "tests/fixtures.h"

namespace scalecast {
namespace {

constexpr double kCore = 25 * units::kGbps;  // core_copy_bandwidth().bytes_per_s(): one ZeroMQ I/O thread
constexpr double kCall = 20e-6, kLatency = 25e-6;  // kernel TCP's defaults (sim/types/cluster.cpp)

// Two single-GPU worker nodes and one server; pushes A and B are queued at once, and A's pull
// after A. Returns when each task ends.
std::vector<double> push_push_pull(const Strategy& strategy, Transport transport = Transport::tcp,
                                   bool in_order = false) {
  Schedule s;
  s.cluster = testing::simple_cluster(2, 1, 100, transport);
  s.cluster.net.in_order_connections = in_order;
  s.cluster.ps.servers = 1;
  s.strategy = strategy;
  s.tasks = {testing::ps_transfer(0, CommOp::push, 4e6), testing::ps_transfer(1, CommOp::push, 4e6),
             testing::ps_transfer(2, CommOp::pull, 4e6, {0})};
  std::vector<double> end(3);
  for (const auto& e : AnalyticalBackend().run(s).events) end[e.task] = e.end_s;
  return end;
}

TEST(PullRequests, BytepsAndNotGlooSendThem) {
  const Cluster c = testing::simple_cluster(2, 1, 100);
  EXPECT_TRUE(ps_connections(c, make_preset("wfbp-ps")).pull_requests);
  EXPECT_TRUE(ps_connections(c, make_preset("wfbp-ps")).in_order);
  Strategy gloo = make_preset("wfbp-ps");
  gloo.library = CollectiveLibrary::gloo;
  EXPECT_FALSE(ps_connections(c, gloo).pull_requests);
  EXPECT_FALSE(ps_connections(c, gloo).in_order);
  EXPECT_FALSE(ps_connections(c, make_preset("wfbp-allreduce")).pull_requests);
  Strategy off = make_preset("wfbp-ps");
  switch_off({Mechanism::pull_requests}, off);
  EXPECT_FALSE(ps_connections(c, off).pull_requests);
}

// Each transfer runs at one I/O thread's rate, x = 4 MB / 25 Gbit/s = 1.28 ms, after its 20 us
// call. A's data leaves over [20 us, 20 us + x] and B's over [20 us + x, 20 us + 2x]; A's pull
// is asked for 20 us after A has arrived, but its request leaves only after B: it arrives at
// 45 us + 2x, and the pull's data arrives at 70 us + 3x.
TEST(PullRequests, RequestWaitsForThePushesQueuedBeforeIt) {
  const double x = 4e6 / kCore;
  const std::vector<double> end = push_push_pull(make_preset("bsp-ps"));
  EXPECT_NEAR(end[0], kCall + x + kLatency, 1e-9);
  EXPECT_NEAR(end[1], kCall + 2 * x + kLatency, 1e-9);
  EXPECT_NEAR(end[2], kCall + 3 * x + 2 * kLatency, 1e-9);
}

// Over RDMA (no I/O threads) the server's NIC carries both nodes' transfers, so each runs at half
// of it. With requests A's pull waits for B as above; on in-order connections without them (Gloo
// pairs) its data flows back while B's goes out, on the links of the other direction: it arrives
// at 2 calls + 2x + 2 latencies.
TEST(PullRequests, WithoutRequestsThePullOverlapsTheNextPush) {
  const TransportParams p = default_transport_params(Transport::rdma);
  const double x = 4e6 / (100 * units::kGbps * p.efficiency / 2);
  EXPECT_NEAR(push_push_pull(make_preset("bsp-ps"), Transport::rdma)[2],
              p.call_overhead.s() + 3 * x + 2 * p.latency.s(), 1e-9);
  Strategy off = make_preset("bsp-ps");
  switch_off({Mechanism::pull_requests}, off);
  EXPECT_NEAR(push_push_pull(off, Transport::rdma, true)[2], 2 * p.call_overhead.s() + 2 * x + 2 * p.latency.s(), 1e-9);
}

}  // namespace
}  // namespace scalecast
