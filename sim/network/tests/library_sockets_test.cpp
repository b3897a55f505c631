// Sockets per connection by library over kernel TCP (library_sockets, sim/network/link_capacities.h):
// NCCL's proxy or helper threads on its ring channels, one Gloo pair, and for BytePS one ps-lite
// connection per worker node and server, on ZeroMQ I/O threads that bound each machine; each
// socket or thread is one core's copy rate, 25 Gbit/s.
#include <gtest/gtest.h>

#include "sim/backends/analytical/analytical_backend.h"
#include "sim/network/nccl/nccl_system.h"
#include "sim/network/link_capacities.h"
#include "sim/catalogs/mechanisms.h"
#include "sim/scenario/run_setup.h"
#include "sim/scenario/scenario.h"
#include "sim/types/strategy.h"
#include "tests/fixtures.h"

namespace scalecast {
namespace {

using testing::simple_cluster;

constexpr double kCore = 25 * units::kGbps;  // core_copy_bandwidth()

Strategy with_library(CollectiveLibrary library) {
  Strategy s = make_preset("bsp-allreduce");
  s.library = library;
  return s;
}

// Four V100-PCIe per node and one 100 Gb/s NIC: NCCL's search finds one ring, doubled into two
// channels (ncclTopoPostset); without helper threads each channel's proxy copies both ways at
// half a core, so the node's traffic gets one core each way: 25 Gbit/s, a quarter of the NIC.
TEST(LibrarySockets, NcclProxyThreadsCopyOneCoreEachWayOnTwoChannels) {
  Cluster c = simple_cluster(4, 4, 100);
  const Strategy nccl = with_library(CollectiveLibrary::nccl);
  namespace nc = collectives::nccl;
  const nc::NcclSystem system = nc::nccl_system(c, nc::NcclSettings{});
  ASSERT_EQ(nc::nccl_graphs(system, nc::NcclSettings{}).comm_channels, 2);
  EXPECT_DOUBLE_EQ(library_sockets(c, nccl), 1.0);
  const LinkCapacities l = link_capacities(c, nccl);
  EXPECT_DOUBLE_EQ(l.gpu_transfer_cap.bytes_per_s(), kCore);
  EXPECT_DOUBLE_EQ(l.network_link().bandwidth.bytes_per_s(), kCore);
  // AWS's ENA: NCCL spawns 2 helper threads per connection, each a core, on each channel.
  c.net.socket_threads = 2;
  EXPECT_DOUBLE_EQ(library_sockets(c, nccl), 4.0);
  EXPECT_DOUBLE_EQ(link_capacities(c, nccl).gpu_transfer_cap.bytes_per_s(), std::min(4 * kCore, 10 * units::kGBps));
  // The run's NCCL_MAX_NCHANNELS=1 leaves one channel: its 2 helper threads, 2 cores.
  Strategy one_channel = nccl;
  one_channel.nccl.max_channels = 1;
  EXPECT_DOUBLE_EQ(library_sockets(c, one_channel), 2.0);
  EXPECT_DOUBLE_EQ(link_capacities(c, one_channel).gpu_transfer_cap.bytes_per_s(), 2 * kCore);
}

// A scenario's strategy.nccl_* reaches a training run's sockets, not only `scalecast collective`.
TEST(LibrarySockets, TheScenariosNcclSettingsReachTheRun) {
  const std::string path = std::string(SCALECAST_SOURCE_DIR) + "/scenarios/whatif-a100-25gbe.yaml";
  const Scenario plain = load_scenario(path);
  const Scenario bounded = load_scenario(path, {"strategy.nccl_max_channels=1"});
  const Cluster c = sized_for(plain.cluster, 16);
  EXPECT_EQ(strategy_for(bounded, "wfbp-allreduce").nccl.max_channels, 1);
  EXPECT_LT(library_sockets(c, strategy_for(bounded, "wfbp-allreduce")),
            library_sockets(c, strategy_for(plain, "wfbp-allreduce")));
}

TEST(LibrarySockets, GlooPairIsOneSocket) {
  const Cluster c = simple_cluster(4, 1, 100);
  EXPECT_DOUBLE_EQ(library_sockets(c, with_library(CollectiveLibrary::gloo)), 1.0);
  EXPECT_DOUBLE_EQ(link_capacities(c, with_library(CollectiveLibrary::gloo)).gpu_transfer_cap.bytes_per_s(), kCore);
  EXPECT_EQ(make_preset("ftlib-allreduce").library, CollectiveLibrary::gloo);
  EXPECT_EQ(make_preset("horovod").library, CollectiveLibrary::nccl);
}

// BytePS: the node's root process has one ps-lite connection to each of the 2 servers, each
// server one to each of the 2 worker nodes; a ZeroMQ I/O thread (4 at most) carries each, both
// ways. Transfers keep only host staging's cap.
TEST(LibrarySockets, BytepsMachinesGetAnIoThreadPerConnection) {
  const Cluster c = simple_cluster(2, 4, 100);  // one server per 4 GPUs: 2 servers
  const Strategy ps = make_preset("wfbp-ps");
  EXPECT_DOUBLE_EQ(library_sockets(c, ps), 1.0);
  const LinkCapacities l = link_capacities(c, ps);
  EXPECT_DOUBLE_EQ(l.ps_worker_io.bytes_per_s(), 2 * kCore);
  EXPECT_DOUBLE_EQ(l.ps_server_io.bytes_per_s(), 2 * kCore);
  EXPECT_DOUBLE_EQ(l.gpu_transfer_cap.bytes_per_s(), 10 * units::kGBps);
  EXPECT_DOUBLE_EQ(l.server_transfer_cap.bytes_per_s(), 0);
  // Every GPU a worker process of its own (no node-local reduce): 4 processes of 2 connections
  // each per node; a server has 8 connections on its 4 threads.
  Strategy per_gpu = ps;
  per_gpu.node_local_reduce = false;
  EXPECT_DOUBLE_EQ(link_capacities(c, per_gpu).ps_worker_io.bytes_per_s(), 8 * kCore);
  EXPECT_DOUBLE_EQ(link_capacities(c, per_gpu).ps_server_io.bytes_per_s(), 4 * kCore);
  // All-reduce runs have no such threads.
  EXPECT_DOUBLE_EQ(link_capacities(c, make_preset("bsp-allreduce")).ps_worker_io.bytes_per_s(), 0);
}

// Two single-GPU worker nodes push a 4 MB partition to one server and pull it back: each node's
// one connection is one I/O thread (25 Gbit/s), the server's two threads share its two pushes,
// so each push runs at 25 Gbit/s: 1.28 ms, and the pull likewise, each after its 20 us call and
// before its 25 us latency; the pull's request crosses first (another 25 us).
TEST(LibrarySockets, BytepsPushAndPullRunAtOneIoThreadByHand) {
  Schedule s;
  s.cluster = simple_cluster(2, 1, 100);
  s.cluster.ps.servers = 1;
  s.strategy = make_preset("bsp-ps");
  s.tasks = {testing::ps_transfer(0, CommOp::push, 4e6), testing::ps_transfer(1, CommOp::pull, 4e6, {0})};
  double end = 0;
  for (const auto& e : AnalyticalBackend().run(s).events) end = std::max(end, e.end_s);
  EXPECT_NEAR(end, 2 * (20e-6 + 4e6 / kCore + 25e-6) + 25e-6, 1e-9);
}

// A scenario's network.streams holds for every library; switching the mechanism off gives every
// connection the earlier generic 2 sockets; RDMA has no per-stream rate, so no cap at all.
TEST(LibrarySockets, ScenarioStreamsAndTheSwitchOverrideTheLibrary) {
  Cluster c = simple_cluster(4, 4, 100);
  c.net.streams = 3;
  for (const Strategy& s : {with_library(CollectiveLibrary::nccl), with_library(CollectiveLibrary::gloo),
                            make_preset("bsp-ps")})
    EXPECT_DOUBLE_EQ(library_sockets(c, s), 3.0) << s.method;
  Cluster off = simple_cluster(4, 4, 100);
  collectives::nccl::NcclSettings nccl;
  switch_off({Mechanism::library_sockets}, off, nccl);
  EXPECT_DOUBLE_EQ(library_sockets(off, with_library(CollectiveLibrary::gloo)), 2.0);
  EXPECT_DOUBLE_EQ(link_capacities(off, with_library(CollectiveLibrary::gloo)).gpu_transfer_cap.bytes_per_s(), 2 * kCore);
  const Cluster rdma = simple_cluster(4, 4, 100, Transport::rdma);
  EXPECT_DOUBLE_EQ(link_capacities(rdma, with_library(CollectiveLibrary::nccl)).gpu_transfer_cap.bytes_per_s(), 0);
}

TEST(LibrarySockets, ScenarioNamesTheLibraryAndRefusesAnUnknownOne) {
  testing::TempFolder dir;
  dir.write("gloo.yaml", testing::kBaseScenario + "strategy:\n  library: gloo\n");
  const Scenario s = load_scenario((dir.path() / "gloo.yaml").string());
  EXPECT_EQ(strategy_for(s, "wfbp-allreduce").library, CollectiveLibrary::gloo);
  dir.write("mpi.yaml", testing::kBaseScenario + "strategy:\n  library: mpi\n");
  try {
    load_scenario((dir.path() / "mpi.yaml").string());
    FAIL() << "an unknown library was accepted";
  } catch (const std::exception& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("mpi.yaml:16"), std::string::npos) << what;
    EXPECT_NE(what.find("library"), std::string::npos) << what;
  }
}

}  // namespace
}  // namespace scalecast
