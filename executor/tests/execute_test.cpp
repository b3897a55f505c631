// Whole runs through `scalecast execute --local N` (Gloo over loopback): every task appears in the
// measured timeline on every rank that runs it, the timeline compares against the analytical
// prediction, and the sweep writes its CSV.
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "executor/rank_plan.h"
#include "process_util.h"
#include "sim/formats/schedule_json.h"
#include "sim/formats/timeline_json.h"

namespace scalecast::executor {
namespace {

using testing::fresh_dir;
using testing::read_text;
using testing::run_cli;
using testing::write_schedule;

class Execute : public ::testing::Test {
 protected:
  void SetUp() override {
#ifndef SCALECAST_HAVE_GLOO
    GTEST_SKIP() << "this build has no Gloo transport";
#endif
  }
};

// Runs the schedule and checks that each rank ran what its plan gives it.
void run_and_check(const std::string& method, int gpus, const std::string& extra) {
  const std::string dir = fresh_dir(method);
  const std::string schedule = dir + "/s.json", measured = dir + "/m.json";
  write_schedule(schedule, method, gpus, 2);
  const Schedule s = read_schedule_file(schedule);
  const int world = world_size(s);
  ASSERT_EQ(run_cli("execute " + schedule + " --local " + std::to_string(world) + " --timeout 60s -o " + measured +
                    " --trace " + dir + "/t.json " + extra + " > " + dir + "/out.txt 2>&1"),
            0)
      << read_text(dir + "/out.txt");
  EXPECT_NE(read_text(dir + "/out.txt").find("steady state"), std::string::npos);
  const TimelineFile f = read_timeline_json(measured);
  EXPECT_EQ(f.timeline.backend, "executor-gloo");
  std::set<std::pair<int, int>> ran;  // (task, rank)
  for (const auto& e : f.timeline.events) {
    EXPECT_TRUE(ran.insert({e.task, e.rank}).second) << "task " << e.task << " twice on rank " << e.rank;
    EXPECT_LE(e.start_s, e.end_s);
  }
  for (int r = 0; r < world; ++r) {
    const RankPlan p = plan_rank(s, r);
    for (const Task& t : s.tasks) {
      const bool expected = p.tasks[t.id].role == Role::compute || !p.tasks[t.id].steps.empty();
      EXPECT_EQ(ran.count({t.id, r}) == 1, expected) << s.name_of(t) << " on rank " << r;
    }
  }
  // Dependencies hold on every rank: nothing starts before what it waits for has ended there.
  std::map<std::pair<int, int>, std::pair<double, double>> span;  // (task, rank) -> (start, end)
  for (const auto& e : f.timeline.events) span[{e.task, e.rank}] = {e.start_s, e.end_s};
  for (const auto& [key, times] : span) {
    for (int d : s.tasks[key.first].deps) {
      auto dep = span.find({d, key.second});
      if (dep != span.end()) {
        EXPECT_LE(dep->second.second, times.first + 1e-6)
            << s.name_of(s.tasks[key.first]) << " started before " << s.name_of(s.tasks[d]) << " ended on rank " << key.second;
      }
    }
  }
  ASSERT_EQ(run_cli("compare " + schedule + " " + measured + " --format csv -o " + dir + "/c.csv"), 0);
  const std::string csv = read_text(dir + "/c.csv");
  EXPECT_EQ(csv.rfind("kind,task,name,iteration,op,bytes,predicted_s,measured_s,error_pct,cluster_file\n", 0), 0u);
  EXPECT_NE(csv.find("\nsteady,"), std::string::npos);
  EXPECT_NE(csv.find("\ncomm,"), std::string::npos);
}

TEST_F(Execute, WaitFreeBackpropAllreduce) { run_and_check("wfbp-allreduce", 3, ""); }
TEST_F(Execute, ReferenceCollectives) { run_and_check("bsp-allreduce", 2, "--reference"); }
TEST_F(Execute, ByteSchedulerPriorityAndCredit) { run_and_check("bytescheduler-allreduce", 2, ""); }
TEST_F(Execute, ParameterServerOnItsOwnRank) { run_and_check("wfbp-ps", 2, ""); }
TEST_F(Execute, ParameterServerWithCredit) { run_and_check("bytescheduler-mxnet-ps", 2, ""); }

TEST_F(Execute, SweepWritesNcclTestsColumns) {
  const std::string dir = fresh_dir("sweep");
  ASSERT_EQ(run_cli("execute --sweep 1KB:8KB --local 2 --iters 2 --scenario " SCALECAST_SOURCE_DIR
                    "/scenarios/testbed-4x1gbps.yaml -o " + dir + "/s.csv > " + dir + "/out.txt 2>&1"),
            0)
      << read_text(dir + "/out.txt");
  const std::string table = read_text(dir + "/out.txt"), csv = read_text(dir + "/s.csv");
  EXPECT_NE(table.find("busbw = algbw * 2*(n-1)/n"), std::string::npos) << table;
  EXPECT_NE(table.find("GB/s"), std::string::npos);
  EXPECT_EQ(csv.rfind("op,ranks,transport,implementation,bytes,time_s,algbw_GBps,busbw_GBps,predicted_s\n", 0), 0u);
  EXPECT_NE(csv.find("\nallreduce,2,gloo,ring,8000,"), std::string::npos) << csv;
}

}  // namespace
}  // namespace scalecast::executor
