// Every registered all-reduce algorithm: its closed-form cost against the SimGrid replay of its
// own expansion, alone on clusters whose links have nothing else to carry, in the bandwidth
// regime (64 MB) and the latency regime (64 KB). Where they differ, the bounds below state why.
#include <gtest/gtest.h>

#include <cstdio>
#include <map>
#include <string>

#include "sim/backends/simgrid/tests/helpers.h"

namespace scalecast {
namespace {

using namespace simgrid_testing;

struct Case {
  const char* name;
  Cluster cluster;
  bool one_link_class;  // one GPU per node, or one node
};

std::vector<Case> clusters() {
  return {{"8 nodes x 1 GPU, 10 Gb TCP", cluster(8, 1, 10, Transport::tcp), true},
          {"8 nodes x 1 GPU, 100 Gb RDMA", cluster(8, 1, 100, Transport::rdma), true},
          {"1 node x 8 GPUs, NVLink 3", cluster(1, 8, 100, Transport::rdma, "nvlink3"), true},
          {"4 nodes x 4 GPUs, 25 Gb TCP", cluster(4, 4, 25, Transport::tcp), false}};
}

// Closed form / replay, allowed range. Exact (1e-3) unless a mechanism one side has and the
// other has not is named here; an algorithm registered later must agree or add its reason.
struct Bound {
  double low, high;
};
Bound bound(const std::string& algorithm, const Case& c, bool latency_regime) {
  if (algorithm == "tree") {
    // The closed form is NCCL's tuner (src/graph/tuning.cc): half the bus bandwidth, discounted
    // to 0.9 for the overlap NCCL measures between its trees, and per-level latencies. The
    // replay pipelines 512 KiB chunks through max-min shared links: on one node the reduce and
    // broadcast chains share every GPU link (slower than the tuner's figure), across nodes the
    // two trees fill the NICs better than 0.9 (faster); small messages pay every stage's
    // latency once per chunk.
    return latency_regime ? Bound{0.65, 1.0} : Bound{0.75, 1.45};
  }
  if (algorithm == "nccl") {
    // The closed form is NCCL's model (its protocols, channels, caps and pipeline fill); the
    // replay moves the bytes of the algorithm NCCL picks (replayed_allreduce) as flows with the
    // transport's call overhead, without the protocols' latencies or LL's flag lines. In the
    // bandwidth regime that is within 0.88-1.03 here; in the latency regime the two are not
    // alike (LL's few microseconds against a Simple ring's steps, 0.42-2.5): open, issue 37.
    return latency_regime ? Bound{0.4, 2.6} : Bound{0.85, 1.05};
  }
  if (algorithm == "ring" && !c.one_link_class) {
    // Fast fabric hops deliver before the slow network hop is free: the replay overlaps the
    // network latency of one step with the transfer of the previous, NCCL's tuner adds them
    // (about 5% of a 64 KB all-reduce here, 0.5% of a 64 MB one).
    return latency_regime ? Bound{0.9, 1.0} : Bound{0.99, 1.01};
  }
  return {0.999, 1.001};
}

TEST(CollectiveRegistry, ClosedFormsAgreeWithTheirReplayedExpansions) {
  for (const collectives::AllreduceAlgorithm* a : collectives::allreduce_algorithms()) {
    for (const Case& c : clusters()) {
      for (double bytes : {64e6, 64e3}) {
        const Schedule s = collective(c.cluster, bytes, a->name);
        const double closed = analytical_s(s), replay = simgrid_s(s);
        const double ratio = closed / replay;
        std::printf("%-17s %-28s %6.0f KB: closed form %.6f s, replay %.6f s, ratio %.3f\n", a->name, c.name,
                    bytes / 1e3, closed, replay, ratio);
        const Bound b = bound(a->name, c, bytes < 1e6);
        EXPECT_GE(ratio, b.low) << a->name << ", " << c.name << ", " << bytes << " B";
        EXPECT_LE(ratio, b.high) << a->name << ", " << c.name << ", " << bytes << " B";
      }
    }
  }
}

}  // namespace
}  // namespace scalecast
