// Gradient accumulation: micro-batches before the last keep their gradients local (DDP's no_sync),
// the last one's backward sends them, and throughput counts every micro-batch.
#include <gtest/gtest.h>

#include <algorithm>

#include "tests/fixtures.h"
#include "sim/backends/analytical/analytical_backend.h"
#include "sim/schedules/schedule_builder.h"
#include "sim/formats/schedule_json.h"
#include "sim/backends/steady_state.h"

namespace scalecast {
namespace {

int count(const Schedule& s, TaskKind kind, int iteration) {
  return static_cast<int>(std::count_if(s.tasks.begin(), s.tasks.end(), [&](const Task& t) {
    return t.kind == kind && t.iteration == iteration;
  }));
}

TEST(Accumulation, OnlyTheLastMicroBatchSendsItsGradients) {
  Workload w = testing::uniform_workload(6, 4e6);
  w.accumulation_steps = 4;
  const Cluster c = testing::simple_cluster(2, 4);
  const Schedule s = build_schedule(w, c, make_preset("wfbp-allreduce"), 2);
  EXPECT_EQ(s.accumulation_steps, 4);
  EXPECT_EQ(count(s, TaskKind::forward, 1), 4 * 6);
  EXPECT_EQ(count(s, TaskKind::backward, 1), 4 * 6);
  EXPECT_EQ(count(s, TaskKind::comm, 1), 6);
  // Every message of an iteration waits for a backward task of its last micro-batch.
  int first_of_last = -1;
  int seen = 0;
  for (const Task& t : s.tasks)
    if (t.iteration == 1 && t.kind == TaskKind::forward && ++seen == 3 * 6 + 1) first_of_last = t.id;
  ASSERT_GE(first_of_last, 0);
  for (const Task& t : s.tasks) {
    if (t.iteration != 1 || t.kind != TaskKind::comm) continue;
    for (int d : t.deps) EXPECT_GT(d, first_of_last);
  }
}

TEST(Accumulation, StepsTakeEveryMicroBatchAndOneSync) {
  Workload one = testing::uniform_workload(6, 4e6);
  Workload four = one;
  four.accumulation_steps = 4;
  const Cluster c = testing::simple_cluster(2, 4);
  const Strategy bsp = make_preset("bsp-allreduce");
  const IterationStats a = steady_state(build_schedule(one, c, bsp, 3), AnalyticalBackend().run(build_schedule(one, c, bsp, 3)));
  const IterationStats b = steady_state(build_schedule(four, c, bsp, 3), AnalyticalBackend().run(build_schedule(four, c, bsp, 3)));
  // BSP: compute, then one all-reduce of the same gradients either way.
  EXPECT_NEAR(b.iteration_s - a.iteration_s, 3 * (one.forward_s() + one.backward_s()), 1e-9);
  EXPECT_NEAR(b.exposed_comm_s, a.exposed_comm_s, 1e-9);
  EXPECT_DOUBLE_EQ(four.compute_s(), 4 * (one.forward_s() + one.backward_s()) + one.optimizer_s);
  EXPECT_EQ(four.samples_per_step(), 4 * one.batch_per_gpu);
}

TEST(Accumulation, ScheduleFilesCarryIt) {
  Workload w = testing::uniform_workload(3, 1e6);
  w.accumulation_steps = 2;
  const Schedule s = build_schedule(w, testing::simple_cluster(1, 2), make_preset("ddp"), 1);
  const Schedule back = schedule_from_json(nlohmann::json::parse(schedule_to_json(s).dump()), "test");
  EXPECT_EQ(back.accumulation_steps, 2);
  w.accumulation_steps = 1;
  const std::string plain = schedule_to_json(build_schedule(w, testing::simple_cluster(1, 2), make_preset("ddp"), 1)).dump();
  EXPECT_EQ(plain.find("accumulation_steps"), std::string::npos);
}

}  // namespace
}  // namespace scalecast
