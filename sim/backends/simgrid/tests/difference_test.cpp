// Where flow-level sharing changes the answer: an oversubscribed leaf-spine.
#include <gtest/gtest.h>

#include <cstdio>
#include <vector>

#include "sim/backends/simgrid/tests/helpers.h"

namespace scalecast {
namespace {

using namespace simgrid_testing;

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
