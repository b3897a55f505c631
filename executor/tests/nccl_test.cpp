// The NCCL transport where this build has it: a one-GPU schedule runs its compute as calibrated
// spin kernels timed by CUDA events; without a GPU the run is refused with one clear line.
#include <gtest/gtest.h>

#include "process_util.h"
#include "sim/formats/timeline_json.h"

namespace scalecast::executor {
namespace {

using testing::fresh_dir;
using testing::read_text;
using testing::run_cli;
using testing::write_schedule;

TEST(Nccl, ComputeOnOneGpuOrAClearRefusal) {
#ifndef SCALECAST_HAVE_NCCL
  GTEST_SKIP() << "this build has no NCCL transport";
#endif
  const std::string dir = fresh_dir("nccl");
  write_schedule(dir + "/s.json", "wfbp-allreduce", 1, 2);
  const int code = run_cli("execute " + dir + "/s.json --transport nccl --local 1 -o " + dir + "/m.json > " + dir +
                           "/out.txt 2>&1");
  const std::string out = read_text(dir + "/out.txt");
  if (code == 2 && out.find("needs a GPU") != std::string::npos) GTEST_SKIP() << "no GPU here: " << out;
  ASSERT_EQ(code, 0) << out;
  const TimelineFile f = read_timeline_json(dir + "/m.json");
  EXPECT_EQ(f.timeline.backend, "executor-nccl");
  // Two iterations of 0.1 s of compute: the spin kernels, timed by CUDA events, add up to that
  // within their launch overheads.
  double measured = 0;
  for (const auto& e : f.timeline.events) measured += e.end_s - e.start_s;
  EXPECT_GT(measured, 0.18);
  EXPECT_LT(measured, 0.3);
}

}  // namespace
}  // namespace scalecast::executor
