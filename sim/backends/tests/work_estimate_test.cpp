// The size of a run, estimated before it is built: never below what the builder makes, and a
// refusal with the figures where a run would exceed the limits.
#include "sim/backends/work_estimate.h"

#include <gtest/gtest.h>

#include "tests/fixtures.h"
#include "sim/backends/analytical/analytical_backend.h"
#include "sim/io/input_error.h"
#include "sim/prediction/prediction.h"
#include "sim/schedules/schedule_builder.h"

namespace scalecast {
namespace {

TEST(WorkEstimate, TasksAreAnUpperBoundOfWhatTheBuilderMakes) {
  const Workload w = testing::uniform_workload(12, 3e6);
  for (const auto& preset : list_presets())
    for (int nodes : {1, 2, 4}) {
      Strategy s = make_preset(preset.name);
      if (s.aggregation == Aggregation::root_reduce && nodes > 1) continue;
      for (double partition : {0.0, 1e6}) {
        if (partition > 0) s.partition_bytes = partition;
        const Cluster c = testing::simple_cluster(nodes, 2);
        const double built = static_cast<double>(build_schedule(w, c, s, 3).tasks.size());
        const double estimated = estimate_schedule(w, c, s, 3).tasks;
        EXPECT_GE(estimated, built) << preset.name << " on " << nodes << " nodes";
        EXPECT_LE(estimated, 2 * built + 10) << preset.name << " on " << nodes << " nodes";
      }
    }
}

TEST(WorkEstimate, ARunBeyondTheLimitsIsRefusedWithItsFigures) {
  const Workload w = testing::uniform_workload(4, 100e6);
  Strategy s = make_preset("wfbp-ps");
  s.partition_bytes = 1;  // 4e8 partitions per iteration
  try {
    check_work(estimate_schedule(w, testing::simple_cluster(2, 2), s, 5), {}, "wfbp-ps on 4 GPUs");
    FAIL() << "a 1 B partition was accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()),
              "wfbp-ps on 4 GPUs: about 4e+09 events (5 iterations x (9 compute + 8e+08 communication tasks)), "
              "more than the limit of 1e+09; raise it with --max-events N");
  }
  WorkLimits small;
  small.max_memory_bytes = 1e6;
  EXPECT_THROW(check_work(estimate_schedule(w, testing::simple_cluster(2, 2), make_preset("wfbp-ps"), 1000), small,
                          "x"),
               InputError);
}

TEST(WorkEstimate, ParameterServersCostEveryLinkPerFlow) {
  const AnalyticalBackend backend;
  Cluster c = testing::simple_cluster(2, 2);
  const Schedule few = build_schedule(testing::uniform_workload(4, 1e6), c, make_preset("wfbp-ps"), 2);
  c.ps.servers = 1000;
  c.ps.gpus_per_server = 0;
  const Schedule many = build_schedule(testing::uniform_workload(4, 1e6), c, make_preset("wfbp-ps"), 2);
  EXPECT_GT(estimate_run(many, backend).events, 100 * estimate_run(few, backend).events);
}

}  // namespace
}  // namespace scalecast
