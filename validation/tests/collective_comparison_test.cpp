// compare_collective's regime figures on a measured run made from the model's own times (which
// sizes fall in the latency, bandwidth and 1-64 MiB bands, the signed error over the last).
#include "validation/collective_comparison.h"

#include <gtest/gtest.h>

#include "sim/collectives/nccl_model.h"
#include "sim/scenario/run_setup.h"

namespace scalecast::validation {
namespace {

TEST(CollectiveComparison, RegimesAndTheSignedErrorOverTrainingMessageSizes) {
  const Scenario s = load_scenario(std::string(SCALECAST_SOURCE_DIR) + "/scenarios/cluster-h100-ndr.yaml");
  const Cluster sized = sized_for(s.cluster, 16);
  calibration::NcclTestsOutput measured;
  measured.source = "made.txt";
  measured.op = collectives::CollectiveOp::all_reduce;
  // Measured twice as long as predicted up to 64 MiB (error -50%), exactly as predicted above.
  const double mib = 1048576;
  for (double bytes : {8.0, 65536.0, mib, 64 * mib, 128 * mib}) {
    const double predicted_us =
        collectives::nccl::nccl_model(sized, s.strategy.nccl).time(measured.op, bytes, 1).seconds * 1e6;
    measured.rows.push_back({0, bytes, (bytes <= 64 * mib ? 2 : 1) * predicted_us, 0, 0});
  }
  const CollectiveComparison c = compare_collective(s, measured, 16, 2, 1);
  ASSERT_EQ(c.sizes.size(), 5u);
  EXPECT_EQ(c.latency_sizes, 1);    // 8 B; 64 KiB is in neither regime
  EXPECT_EQ(c.bandwidth_sizes, 3);  // 1, 64 and 128 MiB
  EXPECT_EQ(c.bucket_sizes, 2);     // 1 and 64 MiB
  EXPECT_NEAR(c.latency_mape, 50, 1e-9);
  EXPECT_NEAR(c.bandwidth_mape, 100.0 / 3, 1e-9);
  EXPECT_NEAR(c.bucket_bias, -50, 1e-9);  // signed: predicted faster than measured
  EXPECT_NEAR(c.bandwidth_max, 50, 1e-9);
}

}  // namespace
}  // namespace scalecast::validation
