// The SimGrid backend over 200 generated scenarios (up to 32 GPUs, smaller models): every
// prediction valid, and on uncontended single-ring cases the same iteration time as the
// analytical backend within 1% and the same commit order.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "sim/backends/analytical/analytical_backend.h"
#include "sim/collectives/allreduce_algorithm.h"
#include "sim/scenario/scenario.h"
#include "sim/backends/simgrid/replay_backend.h"
#include "sim/scenario/workload_builder.h"
#include "tests/invariants/generated_scenario.h"

namespace scalecast::invariants {
namespace {

// One ring over links of one class with nothing else on them: one GPU per node or one node,
// every all-reduce a ring, nothing crossing leaf uplinks, no host bridge.
bool uncontended_single_ring(const Schedule& s) {
  const Cluster& c = s.cluster;
  if (s.strategy.aggregation != Aggregation::allreduce) return false;
  if (!(c.gpus_per_node == 1 || c.nodes == 1) || c.topology.crosses_spine(c.nodes)) return false;
  if (c.fabric.bridge_bandwidth.bytes_per_s() > 0) return false;
  for (const Task& t : s.tasks)
    if (t.kind == TaskKind::comm && (t.op != CommOp::allreduce || std::string(t.algorithm->name) != "ring")) return false;
  return true;
}

TEST(SimgridInvariants, HoldForGeneratedScenariosAndAgreeOnUncontendedRings) {
  std::mt19937_64 rng(seed() + 1);
  const int cases = case_count(200);
  const Bounds bounds{32, {"resnet18", "mobilenet_v2", "distml-resnet18-mnist", "resnet50"}, 3};
  const AnalyticalBackend analytical;
  const SimgridBackend simgrid;
  int checked = 0, rings = 0, failures = 0;
  for (int i = 0; i < cases && failures < 5; ++i) {
    const GeneratedCase c = generate_case(rng, i, bounds);
    auto fail = [&](const std::string& what) {
      ADD_FAILURE() << "case " << i << ": " << what << "\n  reproduce: " << c.command() << " --backend simgrid"
                    << " with case.yaml = " << save_case(c, "simgrid-invariant-" + std::to_string(i)) << "\n"
                    << c.yaml;
      ++failures;
    };
    try {
      const Scenario s = parse_scenario(c.yaml, "invariant-" + std::to_string(i) + ".yaml");
      const Workload w = build_workload(s).workload;
      const PredictionRun g = predict(s, w, c.method, c.gpus, simgrid);
      for (const std::string& v : violations(g, w)) fail("simgrid: " + v);
      if (uncontended_single_ring(g.schedule)) {
        ++rings;
        const PredictionRun a = predict(s, w, c.method, c.gpus, analytical);
        if (std::abs(g.row.iteration_s / a.row.iteration_s - 1) > 0.01)
          fail("uncontended ring: simgrid " + std::to_string(g.row.iteration_s) + " s, analytical " +
               std::to_string(a.row.iteration_s) + " s");
        if (g.timeline.commits != a.timeline.commits) fail("the two drivers committed in different orders");
      }
    } catch (const std::exception& e) {
      fail(std::string("threw: ") + e.what());
    }
    ++checked;
  }
  std::printf("simgrid invariants: %d generated scenarios, %d uncontended single rings (seed %llu)\n", checked,
              rings, static_cast<unsigned long long>(seed() + 1));
  EXPECT_EQ(checked, cases);
  EXPECT_GT(rings, cases / 20);
}

}  // namespace
}  // namespace scalecast::invariants
