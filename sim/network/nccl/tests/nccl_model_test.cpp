// NCCL's tuning model as scalecast re-implements it, against the figures of NCCL 2.27.7's own
// formulas worked by hand and against times NCCL printed in a public log; NCCL_ALGO/NCCL_PROTO
// syntax; the channel search; and the predicted time's mechanisms (rails, launches).
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

#include "sim/io/input_error.h"
#include "sim/types/cluster.h"
#include "sim/collectives/nccl_model.h"
#include "sim/network/nccl/nccl_system.h"
#include "sim/network/nccl/nccl_tuning.h"
#include "sim/catalogs/nic_catalog.h"
#include "sim/report/nccl_tests_table.h"

namespace scalecast::collectives::nccl {
namespace {

// An HGX H100 node type: NVSwitch, 8 ConnectX-7 rails, `nodes` x `ppn` GPUs of it used.
Cluster hgx_h100(int nodes, int ppn, int nics = 8, double nic_gbps = 400) {
  Cluster c;
  c.gpu = "h100";
  c.nodes = nodes;
  c.gpus_per_node = ppn;
  c.node_gpus = 8;
  c.fabric = default_fabric("nvlink4");
  c.nics_per_node = nics;
  c.nic_bandwidth = Rate(nic_gbps * 1e9 / 8);
  c.transport = Transport::rdma;
  c.net = default_transport_params(Transport::rdma);
  return c;
}

Estimate chosen(const Cluster& c, Func f, double bytes, const NcclSettings& set = {}) {
  const NcclSystem s = nccl_model(c, set).system();
  return estimates(s, nccl_graphs(s, set), enabled(set), f, bytes).front();
}

TEST(NcclModel, OneH100NodeAsNcclEstimatesIt) {
  // tuning.cc by hand: ring/tree 12 x 30 GB/s, NVLS 8 heads x 40 GB/s (bus 320, algorithm x 5/6).
  const Estimate big = chosen(hgx_h100(1, 8), Func::all_reduce, 1073741824);
  EXPECT_EQ(big.algo, Algo::nvls);
  EXPECT_NEAR(big.time_us, 25 + 1073741824 / (1000 * 320 * 5.0 / 6.0), 0.01);  // 4051.5 us
  const Estimate small = chosen(hgx_h100(1, 8), Func::all_reduce, 8);
  EXPECT_EQ(small.algo, Algo::ring);
  EXPECT_EQ(small.proto, Proto::ll);
  EXPECT_NEAR(small.latency_us, 6.6 + 14 * 0.6, 1e-9);  // baseLat + 2(n-1) NVLink steps: 15.0 us
  NcclSettings ring;
  ring.algo = "ring";
  ring.proto = "simple";
  EXPECT_NEAR(chosen(hgx_h100(1, 8), Func::all_reduce, 1073741824, ring).time_us,
              8.4 + 14 * 3.4 + 1073741824 / (1000 * 360.0 * 8 / 14), 0.01);  // 5275.6 us
}

TEST(NcclModel, TwoH100NodesAsNcclEstimatesThem) {
  // 8 rails of 400 Gb/s: rings of 8 x 48 GB/s; NVLS-tree across the two nodes; tree/LL when small.
  const Estimate big = chosen(hgx_h100(2, 8), Func::all_reduce, 1073741824);
  EXPECT_EQ(big.algo, Algo::nvls_tree);
  EXPECT_NEAR(big.time_us, 25 + 2 * 14 + 1073741824 / (1000 * 320 * 5.0 / 6.0), 0.01);  // 4079.5 us
  const Estimate small = chosen(hgx_h100(2, 8), Func::all_reduce, 8);
  EXPECT_EQ(small.algo, Algo::tree);
  EXPECT_NEAR(small.time_us, 6.8 + 2 * (7 * 0.6 + 1 * 5.0), 0.01);  // 25.2 us
}

TEST(NcclModel, ReproducesTreeTimesNcclPrintedOnThreeH100Nodes) {
  // NVIDIA/nccl issue 1453: 3 nodes x 8 H100, 200 Gb/s NICs, NCCL's debug log printed Tree/LL
  // estimates of 25.331, 25.875 and 26.550 us for 1, 4 and 8 KiB.
  const Cluster c = hgx_h100(3, 8, 8, 200);
  EXPECT_NEAR(chosen(c, Func::all_reduce, 1024).time_us, 25.331, 0.001);
  EXPECT_NEAR(chosen(c, Func::all_reduce, 4096).time_us, 25.875, 0.001);
  EXPECT_NEAR(chosen(c, Func::all_reduce, 8192).time_us, 26.550, 0.001);
}

TEST(NcclModel, ChannelSearchOnTypicalSystems) {
  const auto graphs = [](const Cluster& c) {
    const NcclSystem s = nccl_model(c, {}).system();
    return nccl_graphs(s, {});
  };
  const Graphs one = graphs(hgx_h100(1, 8));
  EXPECT_EQ(one.ring.channels, 12);  // 6 x 60 GB/s, then split in two
  EXPECT_DOUBLE_EQ(one.ring.bw_intra, 30);
  EXPECT_EQ(one.comm_channels, 24);
  EXPECT_EQ(one.nvls.channels, 8);
  EXPECT_DOUBLE_EQ(one.nvls.bw_intra, 40);
  const Graphs two = graphs(hgx_h100(2, 8));
  EXPECT_EQ(two.ring.channels, 8);
  EXPECT_DOUBLE_EQ(two.ring.bw_inter, 48);
  EXPECT_TRUE(two.tree.tree_pattern);
  const Graphs lone = graphs(hgx_h100(2, 1));  // one GPU a node: its one rail
  EXPECT_EQ(lone.ring.channels, 2);
  EXPECT_DOUBLE_EQ(lone.ring.bw_inter, 24);
  EXPECT_DOUBLE_EQ(lone.tree.bw_intra, 48);  // pass 2 raises a lone GPU's tree to twice
}

TEST(NcclModel, AlgorithmAndProtocolMasksInNcclSyntax) {
  NcclSettings s;
  s.algo = "^nvls,nvlstree";
  Enabled e = enabled(s);
  EXPECT_FALSE(e.algo[static_cast<int>(Func::all_reduce)][static_cast<int>(Algo::nvls)]);
  EXPECT_TRUE(e.algo[static_cast<int>(Func::all_reduce)][static_cast<int>(Algo::ring)]);
  s.algo = "allreduce:tree;allgather:ring";
  s.proto = "LL128";
  e = enabled(s);
  EXPECT_TRUE(e.algo[static_cast<int>(Func::all_reduce)][static_cast<int>(Algo::tree)]);
  EXPECT_FALSE(e.algo[static_cast<int>(Func::all_reduce)][static_cast<int>(Algo::ring)]);
  EXPECT_TRUE(e.algo[static_cast<int>(Func::broadcast)][static_cast<int>(Algo::ring)]);  // unnamed: all
  EXPECT_FALSE(e.proto[static_cast<int>(Func::all_reduce)][static_cast<int>(Proto::simple)]);
  EXPECT_EQ(chosen(hgx_h100(2, 8), Func::all_reduce, 1e9, s).algo, Algo::tree);
  EXPECT_THROW(check_mask("ring,spiral", true), InputError);
  EXPECT_THROW(check_mask("allgathr:ring", true), InputError);
  EXPECT_THROW(check_mask("LL64", false), InputError);
  EXPECT_FALSE(valid_mask("ring,spiral", true));
  EXPECT_FALSE(valid_mask("LL64", false));
  EXPECT_TRUE(valid_mask("allreduce:tree;allgather:ring", true));
  EXPECT_TRUE(valid_mask("^LL128", false));
}

TEST(NcclModel, UnorderedNetworksRunSimpleOnly) {
  // EFA v1 cannot deliver 128-byte writes in order: aws-ofi-nccl sets NCCL_PROTO=simple.
  Cluster c = hgx_h100(2, 8, 4, 100);
  const NicSpec& efa = find_nic("efa-v1");
  c.transport = efa.transport;
  c.net.ordered_writes = efa.ordered_writes;
  for (double bytes : {8.0, 65536.0, 1e9}) EXPECT_EQ(chosen(c, Func::all_reduce, bytes).proto, Proto::simple);
}

TEST(NcclCollective, AJobUsesTheRailsOfItsGpus) {
  // One GPU of each of two 8-rail nodes crosses one 400 Gb/s NIC; eight GPUs of each cross eight.
  const double bytes = 1073741824;
  const auto lone = nccl_model(hgx_h100(2, 1), {}).time(CollectiveOp::all_reduce, bytes);
  const double lone_busbw = bytes / lone.seconds * bus_factor(CollectiveOp::all_reduce, 2) / 1e9;
  EXPECT_NEAR(lone_busbw, 400 / 8.0 * 0.95, 1.0);  // one NIC's payload rate
  EXPECT_EQ(lone.bound, "NICs");
  const auto full = nccl_model(hgx_h100(2, 8), {}).time(CollectiveOp::all_reduce, bytes);
  const double full_busbw = bytes / full.seconds * bus_factor(CollectiveOp::all_reduce, 16) / 1e9;
  EXPECT_GT(full_busbw, 8 * lone_busbw);  // NVLS-tree puts less than the ring's bytes on the NICs
  EXPECT_EQ(full.algorithm, "nvls_tree/Simple");
}

// Two nodes with one T4 each behind a 50 Gb/s NIC.
Cluster two_t4_nodes(Transport t) {
  Cluster c;
  c.gpu = "t4";
  c.nodes = 2;
  c.fabric = default_fabric("pcie3");
  c.nic_bandwidth = Rate(50e9 / 8);
  c.transport = t;
  c.net = default_transport_params(t);
  c.net.host_staging_bandwidth = Rate(0);
  return c;
}

TEST(NcclCollective, HostCoresBoundSocketsAndHostCopiedEfa) {
  const double core = core_copy_bandwidth().bytes_per_s() / 1e9;  // 3.125 GB/s
  // Sockets without helper threads: each rank's proxy thread copies both ways.
  Cluster tcp = two_t4_nodes(Transport::tcp);
  EXPECT_NEAR(network_bw(nccl_model(tcp, {}).system(), 2), 0.5 * core, 1e-12);
  // Two helper threads per connection on each of 2 channels: 4 cores a way, beyond the NIC.
  tcp.net.socket_threads = 2;
  EXPECT_NEAR(network_bw(nccl_model(tcp, {}).system(), 2), 50 / 8.0 * 0.94, 1e-12);
  // EFA without device RDMA: the proxy copies what arrives, one core.
  Cluster efa = two_t4_nodes(Transport::efa);
  efa.net.stream_bandwidth = Rate(core_copy_bandwidth().bytes_per_s());
  EXPECT_NEAR(network_bw(nccl_model(efa, {}).system(), 2), core, 1e-12);
  // GPUDirect RDMA: the NIC places the data, no core bounds it.
  EXPECT_NEAR(network_bw(nccl_model(two_t4_nodes(Transport::efa), {}).system(), 2), 50 / 8.0 * 0.95, 1e-12);
  // A 1 GiB ring all-reduce of two ranks moves 1 GiB each way: at the proxy's half core.
  tcp.net.socket_threads = 0;
  NcclSettings ring;
  ring.algo = "ring";
  const double bytes = 1073741824;
  const auto t = nccl_model(tcp, ring).time(CollectiveOp::all_reduce, bytes);
  EXPECT_EQ(t.algorithm, "ring/Simple");
  EXPECT_NEAR(bytes / t.seconds / 1e9, 0.5 * core, 0.001 * core);
  EXPECT_EQ(t.bound, "host cores");
}

TEST(NcclCollective, AGpuReachesItsNicsThroughItsOwnPcieLink) {
  // One T4 (PCIe gen3 x16: NCCL's 12 GB/s) per node in front of four 400 Gb/s NICs: channels
  // fill the GPU's PCIe link, not the NICs' 200 GB/s, and the ring's bus bandwidth stays below it.
  Cluster c = two_t4_nodes(Transport::rdma);
  c.nics_per_node = 4;
  c.nic_bandwidth = Rate(400e9 / 8);
  const NcclSystem s = nccl_model(c, {}).system();
  const Graphs g = nccl_graphs(s, {});
  EXPECT_LE(g.ring.channels * g.ring.bw_inter, 12.0 + 1e-9);
  EXPECT_NEAR(network_bw(s, g.comm_channels), 12.0, 1e-12);
  NcclSettings ring;
  ring.algo = "ring";
  const double bytes = 1073741824;
  const auto t = nccl_model(c, ring).time(CollectiveOp::all_reduce, bytes);
  const double busbw = bytes / t.seconds * bus_factor(CollectiveOp::all_reduce, 2) / 1e9;
  EXPECT_LT(busbw, 12.0);
  EXPECT_GT(busbw, 11.0);
  // Eight bytes cost the latencies alone.
  EXPECT_EQ(nccl_model(c, ring).time(CollectiveOp::all_reduce, 8).bound, "latency");
}

// Two p4d-like nodes: 8 A100 on NVSwitch, 4 x 100 Gb/s EFA v1 (no in-order writes: aws-ofi-nccl's
// SENDRECV protocol) with GPUDirect RDMA.
Cluster two_efa_v1_nodes(double read_threshold) {
  Cluster c;
  c.gpu = "a100-sxm4-40gb";
  c.nodes = 2;
  c.gpus_per_node = 8;
  c.fabric = default_fabric("nvlink3");
  c.nics_per_node = 4;
  c.nic_bandwidth = Rate(100e9 / 8);
  c.transport = Transport::efa;
  c.net = default_transport_params(Transport::efa);
  c.net.ordered_writes = false;
  c.net.read_threshold = Bytes(read_threshold);
  return c;
}

TEST(NcclCollective, EfaMessagesBelowTheReadThresholdCrossTheDevicesTwice) {
  NcclSettings ring;
  ring.algo = "ring";
  auto busbw = [&](const Cluster& c, double bytes) {
    const auto t = nccl_model(c, ring).time(CollectiveOp::all_reduce, bytes);
    return std::pair{bytes / t.seconds * bus_factor(CollectiveOp::all_reduce, 16) / 1e9, t.bound};
  };
  const double nics = 4 * 12.5 * 0.95;  // GB/s of payload a node's NICs carry
  // Before libfabric 1.18 (read from 1 MiB): the ring's slices, half of a rank's share on each
  // of 8 channels, are 64 MiB / (2 x 8 x 16) = 256 KiB: bounced, half the NICs' rate.
  const Cluster old_libfabric = two_efa_v1_nodes(1048576);
  const auto [mid, mid_bound] = busbw(old_libfabric, 64 * 1048576.0);
  EXPECT_LT(mid, nics / 2);
  EXPECT_GT(mid, 0.9 * nics / 2);
  EXPECT_EQ(mid_bound, "EFA bounce buffers");
  // From 256 MiB the slices reach NCCL_BUFFSIZE / 4 = 1 MiB and are read straight in.
  const auto [large, large_bound] = busbw(old_libfabric, 1024 * 1048576.0);
  EXPECT_GT(large, 0.95 * nics);
  EXPECT_EQ(large_bound, "NICs");
  // libfabric 1.18 on (read above one packet): 256 KiB slices go straight in.
  EXPECT_EQ(busbw(two_efa_v1_nodes(8192), 64 * 1048576.0).second, "NICs");
  // EFA's RDMA-write protocol (in-order writes) and other transports never bounce.
  Cluster in_order = old_libfabric;
  in_order.net.ordered_writes = true;
  EXPECT_EQ(busbw(in_order, 64 * 1048576.0).second, "NICs");
  // A tree's messages are one step, NCCL_BUFFSIZE / 8 = 512 KiB at most: always bounced there,
  // and across two nodes each byte crosses a node's NICs once each way.
  NcclSettings tree;
  tree.algo = "tree";
  const double bytes = 1073741824;
  const auto t = nccl_model(old_libfabric, tree).time(CollectiveOp::all_reduce, bytes);
  EXPECT_EQ(t.bound, "EFA bounce buffers");
  EXPECT_NEAR(bytes / t.seconds / 1e9, nics / 2, 0.01 * nics);
  // NVLS-tree's messages are its chunks (NCCL_NVLS_CHUNKSIZE, 128 KiB at most): bounced as well,
  // had H100 nodes EFA v1's NICs.
  Cluster h100 = old_libfabric;
  h100.gpu = "h100";
  h100.fabric = default_fabric("nvlink4");
  NcclSettings nvls_tree;
  nvls_tree.algo = "nvlstree";
  EXPECT_EQ(nccl_model(h100, nvls_tree).time(CollectiveOp::all_reduce, bytes).bound, "EFA bounce buffers");
}

TEST(NcclCollective, TheTreesSimplePipelineFillsHopByHop) {
  // p4de's shape: 2 nodes x 8 A100, 4 EFA NICs, NCCL_BUFFSIZE 8 MiB (steps of 1 MiB). The search
  // gives the tree 8 channels at 24 GB/s inside a node and 12 GB/s between nodes.
  const Cluster c = two_efa_v1_nodes(8192);
  NcclSettings tree;
  tree.algo = "tree";
  tree.proto = "simple";
  tree.buffsize = 8 * 1048576.0;
  const NcclSystem s = nccl_model(c, tree).system();
  const Graphs g = nccl_graphs(s, tree);
  ASSERT_EQ(g.comm_channels, 8);
  ASSERT_DOUBLE_EQ(g.tree.bw_intra, 24);
  ASSERT_DOUBLE_EQ(g.tree.bw_inter, 12);
  NcclSettings no_fill = tree;
  no_fill.pipeline_fill = false;
  const auto fill_us = [&](const NcclSettings& with, double bytes) {
    return 1e6 * (nccl_model(c, with).time(CollectiveOp::all_reduce, bytes).seconds -
                  nccl_model(c, no_fill).time(CollectiveOp::all_reduce, bytes).seconds);
  };
  // A channel's 1 MiB chunk crosses 7 NVLink hops (43.69 us each) and 1 network hop (87.38 us)
  // up, as many down; the slowest hop's own time is the transfer's: 2 x 393.22 - 87.38 us.
  EXPECT_NEAR(fill_us(tree, 8 * 1048576.0), 699.05, 0.01);
  EXPECT_NEAR(fill_us(tree, 1024 * 1048576.0), 699.05, 0.01);  // the chunk stays one step
  EXPECT_NEAR(fill_us(tree, 1048576.0), 699.05 / 8, 0.01);     // 128 KiB a channel
  EXPECT_EQ(nccl_model(c, tree).time(CollectiveOp::all_reduce, 4 * 1048576.0).bound, "pipeline fill");
}

TEST(NcclCollective, OnLl128TheTreeHoldsChunksOnlyAtTheNetwork) {
  // Two H100 nodes: inside a node LL128 forwards each line as its flag lands; the network's proxy
  // sends a step once all of it is in.
  const Cluster c = hgx_h100(2, 8);
  NcclSettings ll128;
  ll128.algo = "tree";
  ll128.proto = "ll128";
  NcclSettings no_fill = ll128;
  no_fill.pipeline_fill = false;
  const NcclSystem s = nccl_model(c, ll128).system();
  const Graphs g = nccl_graphs(s, ll128);
  const auto fill_us = [&](double bytes) {
    return 1e6 * (nccl_model(c, ll128).time(CollectiveOp::all_reduce, bytes).seconds -
                  nccl_model(c, no_fill).time(CollectiveOp::all_reduce, bytes).seconds);
  };
  ASSERT_EQ(g.comm_channels, 16);
  ASSERT_DOUBLE_EQ(g.tree.bw_intra, 48);
  ASSERT_DOUBLE_EQ(g.tree.bw_inter, 48);
  // 64 MiB: LL128's 576,000-byte chunk halves while a channel holds fewer than
  // (1 + log2 2 + 0.1 x 8) x 64 / 8 = 22.4 of them: 144,000 B, 153,600 on the wire (16/15), 3.2 us
  // a hop. One network hop up and one down, less the slowest hop's own time: 3.2 us.
  EXPECT_NEAR(fill_us(67108864.0), 3.2, 1e-6);
  // 1 MiB: halved to 72,000 B while above 128 KiB, then to 18,000 while fewer than 5.6 a channel
  // and above 32 KiB: 19,200 B on the wire, 0.4 us a hop.
  EXPECT_NEAR(fill_us(1048576.0), 0.4, 1e-6);
  // One node: LL128 holds nothing anywhere.
  const Cluster one = hgx_h100(1, 8);
  EXPECT_EQ(nccl_model(one, ll128).time(CollectiveOp::all_reduce, 67108864.0).seconds,
            nccl_model(one, no_fill).time(CollectiveOp::all_reduce, 67108864.0).seconds);
}

// `nodes` x `gpus` of a PCIe GPU without peer-to-peer (pcie3-host, 4 GB/s; PCIe gen3 x16 is
// 12 GB/s to NCCL), over kernel TCP at `gbps`.
Cluster pcie_host_nodes(const char* gpu, int nodes, int gpus, double gbps) {
  Cluster c;
  c.gpu = gpu;
  c.nodes = nodes;
  c.gpus_per_node = gpus;
  c.fabric = default_fabric("pcie3-host");
  c.nic_bandwidth = Rate(gbps * 1e9 / 8);
  c.net = default_transport_params(Transport::tcp);
  return c;
}

NcclSettings simple_ring() {
  NcclSettings ring;
  ring.algo = "ring";
  ring.proto = "simple";
  return ring;
}

TEST(NcclCollective, WithoutPeerToPeerGpusShareTheHostUplink) {
  // Two RTX 2080 Ti without peer-to-peer.
  const Cluster c = pcie_host_nodes("rtx2080ti", 1, 2, 25);
  const NcclSettings ring = simple_ring();
  const double bytes = 1073741824;
  // A ring: both GPUs write and read host memory at once, at the fabric's measured 4 GB/s (below
  // the uplink's 12 / 2 each); bus bandwidth = algorithm bandwidth with two ranks.
  const auto ar = nccl_model(c, ring).time(CollectiveOp::all_reduce, bytes);
  EXPECT_NEAR(bytes / ar.seconds / 1e9, 4.0, 0.01);
  EXPECT_EQ(ar.bound, "host memory");
  // A broadcast's chain: one GPU writes, the other reads: the uplink's 12 GB/s each way.
  const auto bcast = nccl_model(c, ring).time(CollectiveOp::broadcast, bytes);
  EXPECT_NEAR(bytes / bcast.seconds / 1e9, 12.0, 0.05);
}

TEST(NcclCollective, GpusSplitByAHostBridgeShareIt) {
  // Four V100-PCIe on root ports of their own (pcie3-host, no bridge): a ring goes at the
  // fabric's rate; behind one 12 GB/s host bridge, each of four GPUs gets a quarter of it.
  Cluster c = pcie_host_nodes("v100-pcie", 1, 4, 10);
  const NcclSettings ring = simple_ring();
  const double bytes = 1073741824, bus = 2.0 * 3 / 4;
  EXPECT_NEAR(bytes / nccl_model(c, ring).time(CollectiveOp::all_reduce, bytes).seconds * bus / 1e9, 4.0, 0.01);
  c.fabric.bridge_bandwidth = Rate(12e9);
  EXPECT_NEAR(bytes / nccl_model(c, ring).time(CollectiveOp::all_reduce, bytes).seconds * bus / 1e9, 3.0, 0.01);
}

TEST(NcclVersion, TwoFourChoosesByItsThresholds) {
  // ddl-benchmarks' 2 x 4 V100-PCIe over 10 Gb/s TCP with NCCL 2.4.8 (init.cc ncclTreeThreshold):
  // no NVLink, so trees at 2/3 of the ring's 5 GB/s; ring latency 6 x 7 = 42 us against a tree's
  // 15 + 4 x 3 = 27 us: trees up to 5000 x 3333 / 1667 x 15 = 150,000 bytes, rings above.
  const Cluster c = pcie_host_nodes("v100-pcie", 2, 4, 10);
  NcclSettings old;
  old.version = parse_nccl_version("2.4.8");
  ASSERT_EQ(old.version, 20408);
  const NcclModel model = nccl_model(c, old);
  EXPECT_EQ(model.choice(Func::all_reduce, 149000)->algo, Algo::tree);
  EXPECT_EQ(model.choice(Func::all_reduce, 151000)->algo, Algo::ring);
  EXPECT_EQ(model.choice(Func::all_reduce, 64e6)->proto, Proto::simple);
  EXPECT_EQ(model.choice(Func::all_reduce, 1024)->proto, Proto::ll);
  // 2.27's tuning picks the tree for a 64 MB all-reduce on two nodes.
  EXPECT_EQ(nccl_model(c, {}).choice(Func::all_reduce, 64e6)->algo, Algo::tree);
}

TEST(NcclVersion, AlgorithmsProtocolsAndChannelsArriveWithTheirRelease) {
  NcclSettings v;
  // NVLink SHARP from 2.17, NVLS-tree from 2.18.
  v.version = parse_nccl_version("2.16.5");
  EXPECT_FALSE(nccl_model(hgx_h100(1, 8), v).graphs().has_nvls);
  v.version = parse_nccl_version("2.17.1");
  EXPECT_EQ(nccl_model(hgx_h100(1, 8), v).time(CollectiveOp::all_reduce, 1 << 30).algorithm.substr(0, 4), "nvls");
  EXPECT_FALSE(nccl_model(hgx_h100(2, 8), v).time(CollectiveOp::all_reduce, 1 << 30).algorithm.starts_with("nvls_tree"));
  v.version = parse_nccl_version("2.18.5");
  EXPECT_TRUE(nccl_model(hgx_h100(2, 8), v).time(CollectiveOp::all_reduce, 1 << 30).algorithm.starts_with("nvls_tree"));
  // LL128 on Hopper from 2.16; no LL128 at all before 2.5.
  NcclSettings ll128;
  ll128.proto = "ll128";
  ll128.version = parse_nccl_version("2.14.3");
  EXPECT_THROW(nccl_model(hgx_h100(1, 8), ll128).time(CollectiveOp::all_reduce, 1 << 20), InputError);
  ll128.version = parse_nccl_version("2.16.5");
  EXPECT_NO_THROW(nccl_model(hgx_h100(1, 8), ll128).time(CollectiveOp::all_reduce, 1 << 20));
  // MAXCHANNELS: 16 in 2.4, 32 to 2.24, 64 from 2.25.
  EXPECT_EQ(max_channels(20408), 16);
  EXPECT_EQ(max_channels(22403), 32);
  EXPECT_EQ(max_channels(22707), 64);
  // Versions outside what the model knows, or not MAJOR.MINOR.PATCH, are refused.
  EXPECT_EQ(parse_nccl_version("2.3.7"), 0);
  EXPECT_EQ(parse_nccl_version("2.28.3"), 0);
  EXPECT_EQ(parse_nccl_version("2.27"), 0);
  EXPECT_EQ(parse_nccl_version("2.x.1"), 0);
  EXPECT_EQ(nccl_version_text(20408), "2.4.8");
}

TEST(NcclCollective, EachFurtherGpuOfAThreadAddsItsLaunch) {
  const auto one = nccl_model(hgx_h100(1, 8), {}).time(CollectiveOp::all_reduce, 8, 1);
  const auto eight = nccl_model(hgx_h100(1, 8), {}).time(CollectiveOp::all_reduce, 8, 8);
  EXPECT_NEAR(eight.seconds - one.seconds, 7 * kLaunchPerGpuS, 1e-12);
}

TEST(NcclTestsTable, SizesCountsAndNumbersAsNcclTestsPrintsThem) {
  // all_gather on 8 ranks: the count is per rank, a multiple of 16 bytes; the size is the whole.
  const auto sizes = nccl_tests_sizes(CollectiveOp::all_gather, 8, 1024, 2, 0, 4, 8);
  ASSERT_FALSE(sizes.empty());
  EXPECT_EQ(sizes.front().bytes, 0);      // 8 B over 8 ranks rounds to 0
  EXPECT_EQ(sizes.back().bytes, 1024);
  EXPECT_EQ(sizes.back().count, 32);      // 1024 / 4 / 8
  EXPECT_EQ(nccl_tests_number(4051.53, 7), "4051.53");
  EXPECT_EQ(nccl_tests_number(15791.0, 7), "15791.0");
  EXPECT_EQ(nccl_tests_number(361738.0, 7), "361738");
  EXPECT_EQ(nccl_tests_number(0.000531, 6), "0.00");
}

}  // namespace
}  // namespace scalecast::collectives::nccl
