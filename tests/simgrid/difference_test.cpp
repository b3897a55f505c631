// Where flow-level sharing changes the answer: parameter-server incast and an oversubscribed
// leaf-spine.
#include <gtest/gtest.h>

#include <cstdio>
#include <vector>

#include "tests/simgrid/helpers.h"

namespace scalecast {
namespace {

using namespace simgrid_testing;

// (b) One server, 1..8 worker nodes of 2 GPUs, 8 partitions of 4 MB pushed at once: the
// server's NIC takes every worker's bytes, so time grows with the workers in both backends,
// which share that NIC max-min alike. The replay grows more: before each partition leaves a
// node its GPUs gather it on GPU 0 (push_pull's node-local reduce, (g-1) x bytes into GPU 0) and
// the pull fans it out after, in series with the network; the analytical backend charges the
// fabric one partition's bytes, overlapped with the NIC.
TEST(SimgridDifference, ParameterServerIncastGrowsWithWorkers) {
  std::printf("%8s %14s %14s\n", "workers", "analytical s", "simgrid s");
  std::vector<double> sg, an;
  for (int workers : {1, 2, 4, 8}) {
    const Schedule s = push_pull(cluster(workers, 2, 10, Transport::tcp), 1, 8, 4e6);
    an.push_back(analytical_s(s));
    sg.push_back(simgrid_s(s));
    std::printf("%8d %14.6f %14.6f\n", workers, an.back(), sg.back());
  }
  for (size_t i = 1; i < sg.size(); ++i) {
    EXPECT_GT(sg[i], 1.8 * sg[i - 1]) << "doubling the workers should nearly double the incast";
    EXPECT_GE(sg[i], an[i]);
  }
  EXPECT_GT(sg.back() - sg.front(), an.back() - an.front());
}

// (d) Eight nodes under leaf switches of two nodes with 4:1 oversubscription (each uplink
// carries half a NIC) against one switch. Halving-doubling's first steps send every node's
// data across the spine at once: both backends slow it down. A ring sends one flow per leaf
// uplink, which then gets half a NIC: the replay halves its network rate, while the analytical
// spine share assumes every node of the leaf crosses at once and quarters it.
TEST(SimgridDifference, OversubscribedSpineIsSlowerThanOneSwitch) {
  Cluster flat = cluster(8, 1, 10, Transport::tcp), spine = flat;
  spine.topology.kind = TopologyKind::leaf_spine;
  spine.topology.nodes_per_leaf = 2;
  spine.topology.oversubscription = 4;
  std::printf("%-18s %14s %14s %14s %14s\n", "algorithm", "switch an s", "switch sg s",
              "spine an s", "spine sg s");
  for (const std::string algorithm : {"ring", "halving-doubling"}) {
    const double af = analytical_s(collective(flat, 64e6, algorithm)),
                 gf = simgrid_s(collective(flat, 64e6, algorithm));
    const double as = analytical_s(collective(spine, 64e6, algorithm)),
                 gs = simgrid_s(collective(spine, 64e6, algorithm));
    std::printf("%-18s %14.6f %14.6f %14.6f %14.6f\n", algorithm.c_str(), af, gf, as,
                gs);
    EXPECT_GT(gs, 1.5 * gf) << algorithm;
    if (algorithm == "ring") {
      EXPECT_NEAR(gs / gf, 2, 0.1);
    }
  }
}

}  // namespace
}  // namespace scalecast
