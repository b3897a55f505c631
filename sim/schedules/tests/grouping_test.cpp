// Tests of message formation: MG-WFBP's merge rule on a three-layer example worked by hand,
// DDP buckets with a smaller first bucket, Horovod's fusion cycle and partitioning.
#include <gtest/gtest.h>

#include "tests/fixtures.h"
#include "sim/schedules/grouping.h"

namespace scalecast {
namespace {

TEST(MgWfbp, ThreeLayerExampleWorkedByHand) {
  // Cost t = a + b*bytes with a = 1 ms, b = 1 ns/byte. Backward order: layer 3, 2, 1.
  // Layer 3's gradient (2 MB) is ready at 10 ms: its message could start at 10 ms.
  // Layer 2's (1 MB) is ready at 10.5 ms < 10 ms + a: merging saves a start-up -> merge.
  //   The merged message starts at 10.5 ms and ends at 10.5 + 1 + 3 = 14.5 ms.
  // Layer 1's (1 MB) is ready at 13 ms >= 10.5 ms + a = 11.5 ms -> a new message.
  const collectives::AlphaBeta cost{1e-3, 1e-9};
  const std::vector<int> group = mgwfbp_merge({10e-3, 10.5e-3, 13e-3}, {2e6, 1e6, 1e6}, cost);
  EXPECT_EQ(group, (std::vector<int>{0, 0, 1}));
  // With a smaller start-up (0.2 ms), layer 2 is ready too late to be worth merging.
  const std::vector<int> separate =
      mgwfbp_merge({10e-3, 10.5e-3, 13e-3}, {2e6, 1e6, 1e6}, {0.2e-3, 1e-9});
  EXPECT_EQ(separate, (std::vector<int>{0, 1, 2}));
  // Tensors ready at the same instant (one layer's weight and bias) always merge.
  EXPECT_EQ(mgwfbp_merge({5e-3, 5e-3}, {1e6, 4}, {1e-5, 1e-9}), (std::vector<int>{0, 0}));
}

TEST(MgWfbp, MessagesBelowTheMinimumMergeWithTheNext) {
  // Three layers 1 ms apart, start-up 0.2 ms: each would go alone. The released code merges a
  // message of fewer than 8192 parameters into the next (hv_distributed_optimizer.py): the
  // 1000-parameter bias goes with the 1M-parameter weight after it; the last stays alone even
  // when small (there is nothing after it).
  const collectives::AlphaBeta cost{0.2e-3, 1e-9};
  const std::vector<double> ready = {10e-3, 11e-3, 12e-3}, bytes = {4000, 4e6, 4000};
  EXPECT_EQ(mgwfbp_merge(ready, bytes, cost), (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(mgwfbp_merge(ready, bytes, cost, {1000, 1e6, 1000}, 8192), (std::vector<int>{0, 0, 1}));
  // Small messages keep merging until they reach the minimum.
  EXPECT_EQ(mgwfbp_merge({1e-3, 2e-3, 3e-3, 4e-3}, {4e3, 4e3, 4e3, 4e3}, cost, {3000, 3000, 3000, 3000}, 8192),
            (std::vector<int>{0, 0, 0, 1}));
  EXPECT_EQ(make_preset("mgwfbp").mgwfbp_min_elements, 8192);
}

TEST(MgWfbp, MergesMoreWhenStartUpCostIsHigher) {
  const Workload w = testing::uniform_workload(20, 1e6);
  Strategy s = make_preset("mgwfbp");
  const auto cheap = group_gradients(w, s, {1e-6, 1e-9});
  const auto costly = group_gradients(w, s, {5e-3, 1e-9});
  EXPECT_EQ(cheap.size(), 20u);
  EXPECT_LT(costly.size(), cheap.size());
  double total = 0;
  for (const auto& m : costly) total += m.bytes;
  EXPECT_DOUBLE_EQ(total, 20e6);
}

TEST(Grouping, DdpBucketsFillInBackwardOrderWithASmallFirstBucket) {
  const Workload w = testing::uniform_workload(10, 4e6);
  Strategy s = make_preset("ddp");
  s.bucket_bytes = 10e6;
  s.first_bucket_bytes = 1e6;
  const auto buckets = group_gradients(w, s, {});
  ASSERT_EQ(buckets.size(), 4u);  // [9], [8 7 6], [5 4 3], [2 1 0]
  EXPECT_EQ(buckets[0].first_layer, 9);
  EXPECT_DOUBLE_EQ(buckets[0].bytes, 4e6);
  EXPECT_EQ(buckets[1].first_layer, 6);
  EXPECT_EQ(buckets[1].last_layer, 8);
  EXPECT_EQ(buckets[3].first_layer, 0);
}

TEST(Grouping, FusionBufferFlushesOnCycleTicksAndWhenFull) {
  // Backward: 2 ms per layer from t = 10 ms (forward 10 x 1 ms). Cycle 5 ms: the ticks at
  // 15, 20, 25, 30 ms collect the tensors ready by then.
  const Workload w = testing::uniform_workload(10, 1e6);
  Strategy s = make_preset("horovod");
  s.cycle_s = 5e-3;
  s.bucket_bytes = 64e6;
  const auto fused = group_gradients(w, s, {});
  // Ready at 12, 14 -> tick 15; 16, 18, 20 -> tick 20; 22, 24 -> 25; 26, 28, 30 -> 30.
  ASSERT_EQ(fused.size(), 4u);
  EXPECT_EQ(fused[0].tensors, 2);
  EXPECT_NEAR(fused[0].delay_s, 1e-3, 1e-12);  // tick 15 ms - last tensor ready at 14 ms
  EXPECT_EQ(fused[1].tensors, 3);
  EXPECT_EQ(fused[3].tensors, 3);
  s.bucket_bytes = 2e6;  // a buffer of two tensors splits the third off the 20 ms tick
  EXPECT_EQ(group_gradients(w, s, {}).size(), 6u);
}

TEST(Grouping, PartitionsAreAtMostThePartitionSize) {
  const std::vector<Message> parts = partition_messages({{10e6, 0, 3, 4, 0}}, 4e6);
  ASSERT_EQ(parts.size(), 3u);
  EXPECT_DOUBLE_EQ(parts[0].bytes, 4e6);
  EXPECT_DOUBLE_EQ(parts[2].bytes, 2e6);
  EXPECT_EQ(partition_messages({{10e6, 0, 3, 4, 0}}, 0).size(), 1u);
}

}  // namespace
}  // namespace scalecast
