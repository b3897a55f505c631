// The executor's rank threads take the scheduling policy's decisions as the simulators do: on a
// schedule whose decisions do not hang on how long transfers take (compute far longer than any
// message on loopback), rank 0 commits in the analytical backend's order, task for task.
#include <gtest/gtest.h>

#include "executor/rank_plan.h"
#include "process_util.h"
#include "sim/backends/analytical/analytical_backend.h"
#include "sim/formats/schedule_json.h"
#include "sim/formats/timeline_json.h"

namespace scalecast::executor {
namespace {

using testing::fresh_dir;
using testing::read_text;
using testing::run_cli;

class CommitOrder : public ::testing::TestWithParam<const char*> {
 protected:
  void SetUp() override {
#ifndef SCALECAST_HAVE_GLOO
    GTEST_SKIP() << "this build has no Gloo transport";
#endif
  }
};

TEST_P(CommitOrder, ExecutorRankZeroCommitsAsTheAnalyticalBackendDoes) {
  const std::string method = GetParam();
  const std::string dir = fresh_dir(std::string("commits_") + method);
  const std::string schedule = dir + "/s.json", measured = dir + "/m.json";
  // MobileNet-V2 at 50 images/s on 100 Gb RDMA: a millisecond or more per layer, each message
  // gone long before the next is ready, so every commit happens as soon as a message is ready.
  ASSERT_EQ(run_cli("schedule " SCALECAST_SOURCE_DIR "/scenarios/testbed-4x1gbps.yaml --method " + method +
                    " --gpus 2 --set model.name=mobilenet_v2 --set iterations=2 --set gpu.single_gpu_throughput=50"
                    " --set cluster.network.bandwidth=100Gbps --set cluster.network.transport=rdma -o " +
                    schedule),
            0);
  const Schedule s = read_schedule_file(schedule);
  ASSERT_EQ(run_cli("execute " + schedule + " --local " + std::to_string(world_size(s)) + " --timeout 60s -o " +
                    measured + " > " + dir + "/out.txt 2>&1"),
            0)
      << read_text(dir + "/out.txt");
  const TimelineFile executed = read_timeline_json(measured);
  const Timeline predicted = AnalyticalBackend().run(s);
  ASSERT_FALSE(predicted.commits.empty());
  EXPECT_EQ(executed.timeline.commits, predicted.commits);
}

INSTANTIATE_TEST_SUITE_P(Methods, CommitOrder,
                         ::testing::Values("wfbp-allreduce", "bytescheduler-allreduce", "wfbp-ps"));

}  // namespace
}  // namespace scalecast::executor
