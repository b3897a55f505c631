// End to end on the dump under tests/data (the check workload's layout: two layers, nested
// sgemm/bias_relu ranges, weight gradient on a second stream): read, attribute, write the CSV.
#include <gtest/gtest.h>

#include <sstream>

#include "profiler/attribution.h"
#include "profiler/dump_reader.h"
#include "profiler/profile_csv.h"

namespace scalecast::profiler {
namespace {

TEST(SampleDump, CheckWorkloadLayout) {
  const ActivityLog log =
      read_dump(std::string(SCALECAST_PROFILER_TEST_DATA) + "/check_workload.activity");
  const Attribution a = attribute(log, AttributionOptions{"iteration", 1});
  EXPECT_TRUE(a.warnings.empty()) << ::testing::PrintToString(a.warnings);
  std::ostringstream csv;
  write_profile_csv(csv, a.profile);
  EXPECT_EQ(csv.str(),
            "# scalecast profile v1\n"
            "# gpu: NVIDIA H100 80GB HBM3\n"
            "# iterations: 2\n"
            "# warmup: 1\n"
            "# step_s: 0.000050000\n"
            "layer,forward_ms,backward_ms,grad_tensors,grad_bytes,forward_std_ms,backward_std_ms\n"
            "fc1,0.002600,0.002400,0,0,0.000141,0.000000\n"
            "fc2,0.003500,0.002500,0,0,0.000000,0.000000\n");
  EXPECT_NEAR(a.unattributed_ms, 0.0004, 1e-12);  // loss and optimizer kernels
}

}  // namespace
}  // namespace scalecast::profiler
