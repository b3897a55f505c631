// Attribution on synthetic logs: user layer ranges, nesting, emit_nvtx seq matching across
// threads, overlapping streams, missing pops, warm-up dropping, mean and standard deviation.
#include "profiler/attribution.h"

#include <gtest/gtest.h>

#include "profiler/tests/log_builder.h"
#include "sim/io/input_error.h"

namespace scalecast::profiler {
namespace {

using testing::LogBuilder;

constexpr double kNs = 1e-6;  // one nanosecond in milliseconds

const ProfileLayer& layer(const Attribution& a, const std::string& name) {
  for (const ProfileLayer& l : a.profile.layers) {
    if (l.name == name) return l;
  }
  throw std::runtime_error("no layer " + name);
}

std::vector<std::string> layer_names(const Attribution& a) {
  std::vector<std::string> names;
  for (const ProfileLayer& l : a.profile.layers) names.push_back(l.name);
  return names;
}

bool has_warning(const Attribution& a, const std::string& text) {
  for (const std::string& w : a.warnings) {
    if (w.find(text) != std::string::npos) return true;
  }
  return false;
}

// Five iterations 10 us apart of conv1 then fc, forward and backward, on thread 1.
// conv1's forward kernel lasts conv1_ns[k] in iteration k.
LogBuilder two_layer_run(const std::vector<Nanos>& conv1_ns) {
  LogBuilder b;
  for (size_t k = 0; k < conv1_ns.size(); ++k) {
    const Nanos t = 10000 * (k + 1);
    b.push(1, t, "iteration");
    b.push(1, t + 10, "fwd:conv1");
    b.kernel(1, t + 20, 7, t + 100, t + 100 + conv1_ns[k]);
    b.pop(1, t + 30);
    b.push(1, t + 40, "fwd:fc");
    b.kernel(1, t + 50, 7, t + 1300, t + 1400);
    b.pop(1, t + 60);
    b.push(1, t + 70, "bwd:fc");
    b.kernel(1, t + 80, 7, t + 1500, t + 1700);
    b.pop(1, t + 90);
    b.push(1, t + 91, "bwd:conv1");
    b.kernel(1, t + 92, 7, t + 1800, t + 2000);
    b.pop(1, t + 93);
    b.pop(1, t + 3000);
  }
  return b;
}

TEST(Attribution, UserLayersInForwardOrderWithWarmupDropped) {
  const LogBuilder b = two_layer_run({900, 900, 100, 200, 300});
  const Attribution a = attribute(b.log, AttributionOptions{"iteration", 2});
  EXPECT_EQ(layer_names(a), (std::vector<std::string>{"conv1", "fc"}));
  EXPECT_EQ(a.profile.iterations, 3);
  EXPECT_EQ(a.profile.warmup, 2);
  const ProfileLayer& conv1 = layer(a, "conv1");
  EXPECT_NEAR(conv1.forward_ms, 200 * kNs, 1e-12);      // mean of 100, 200, 300 ns
  EXPECT_NEAR(conv1.forward_std_ms, 100 * kNs, 1e-12);  // sample standard deviation
  EXPECT_NEAR(conv1.backward_ms, 200 * kNs, 1e-12);
  EXPECT_NEAR(conv1.backward_std_ms, 0, 1e-12);
  EXPECT_NEAR(layer(a, "fc").forward_ms, 100 * kNs, 1e-12);
  EXPECT_NEAR(layer(a, "fc").backward_ms, 200 * kNs, 1e-12);
  EXPECT_NEAR(a.profile.step_s, 3000e-9, 1e-15);  // the range outlasts its GPU work
  EXPECT_NEAR(a.unattributed_ms, 0, 1e-12);
  EXPECT_TRUE(a.warnings.empty());
  ASSERT_EQ(a.iterations.size(), 5u);
  EXPECT_TRUE(a.iterations[1].warmup);
  EXPECT_FALSE(a.iterations[2].warmup);
}

TEST(Attribution, WarmupZeroKeepsEveryIteration) {
  const LogBuilder b = two_layer_run({100, 300});
  const Attribution a = attribute(b.log, AttributionOptions{"iteration", 0});
  EXPECT_EQ(a.profile.iterations, 2);
  EXPECT_NEAR(layer(a, "conv1").forward_ms, 200 * kNs, 1e-12);
  EXPECT_NEAR(layer(a, "conv1").forward_std_ms, 141.42135623730951 * kNs, 1e-12);
}

TEST(Attribution, InnermostEnclosingRangeWins) {
  LogBuilder b;
  b.push(1, 0, "iteration");
  b.push(1, 10, "layer:block");
  b.kernel(1, 15, 1, 100, 200);  // block
  b.push(1, 20, "layer:block.conv");
  b.push(1, 21, "aten::conv2d");
  b.kernel(1, 22, 1, 200, 400);  // block.conv, through an op range
  b.pop(1, 23);
  b.pop(1, 24);
  b.kernel(1, 40, 1, 400, 450);  // block again
  b.pop(1, 50);
  b.pop(1, 1000);
  const Attribution a = attribute(b.log, AttributionOptions{"iteration", 0});
  EXPECT_EQ(layer_names(a), (std::vector<std::string>{"block", "block.conv"}));
  EXPECT_NEAR(layer(a, "block").forward_ms, 150 * kNs, 1e-12);
  EXPECT_NEAR(layer(a, "block.conv").forward_ms, 200 * kNs, 1e-12);
}

TEST(Attribution, PhaseRangesSetThePhaseOfLayerRanges) {
  LogBuilder b;
  b.push(1, 0, "iteration");
  b.push(1, 1, "forward");
  b.push(1, 2, "layer:embed");
  b.kernel(1, 3, 1, 10, 20);
  b.pop(1, 4);
  b.pop(1, 5);
  b.push(1, 6, "backward");
  b.push(1, 7, "layer:embed");
  b.kernel(1, 8, 1, 30, 60);
  b.pop(1, 9);
  b.pop(1, 10);
  b.pop(1, 100);
  const Attribution a = attribute(b.log, AttributionOptions{"iteration", 0});
  EXPECT_NEAR(layer(a, "embed").forward_ms, 10 * kNs, 1e-12);
  EXPECT_NEAR(layer(a, "embed").backward_ms, 30 * kNs, 1e-12);
}

// PyTorch emit_nvtx: forward ops on the main thread carry "seq = N"; the autograd thread runs
// "XBackward0, seq = N" (or "stashed seq") nodes whose kernels belong to the forward op's layer.
TEST(Attribution, EmitNvtxSeqMatchesBackwardToForwardAcrossThreads) {
  LogBuilder b;
  const uint32_t main = 11;
  const uint32_t autograd = 22;
  b.push(main, 0, "iteration");
  b.push(main, 10, "fwd:conv1");
  b.push(main, 11, "aten::conv2d, seq = 100, sizes = [[64, 3, 7, 7], [64]]");
  b.push(main, 12, "aten::convolution, seq = 100");
  b.push(main, 13, "aten::cudnn_convolution");
  b.kernel(main, 14, 7, 100, 400);
  b.pop(main, 15);
  b.pop(main, 16);
  b.pop(main, 17);
  b.pop(main, 18);
  b.push(main, 20, "fwd:fc");
  b.push(main, 21, "aten::linear, seq = 101, op_id = 5");
  b.push(main, 22, "aten::t, seq = 101");
  b.pop(main, 23);
  b.push(main, 24, "aten::addmm, seq = 102");
  b.kernel(main, 25, 7, 400, 500);
  b.pop(main, 26);
  b.pop(main, 27);
  b.pop(main, 28);
  b.push(main, 30, "aten::mse_loss, seq = 103");  // outside every layer
  b.kernel(main, 31, 7, 500, 510);
  b.pop(main, 32);
  b.push(main, 40, "aten::backward");
  b.push(autograd, 41, "AddmmBackward0, op_id = 9, seq = 102");
  b.push(autograd, 42, "aten::mm, seq = 100");  // the autograd thread's own counter
  b.kernel(autograd, 43, 7, 600, 800);
  b.pop(autograd, 44);
  b.pop(autograd, 45);
  b.push(autograd, 46, "TBackward0, seq = 101");
  b.pop(autograd, 47);
  b.push(autograd, 48, "ConvolutionBackward0, stashed seq = 100");
  b.kernel(autograd, 49, 7, 800, 1200);
  b.pop(autograd, 50);
  b.push(autograd, 51, "torch::autograd::AccumulateGrad");
  b.kernel(autograd, 52, 7, 1200, 1230);
  b.pop(autograd, 53);
  b.pop(main, 60);
  b.pop(main, 2000);
  const Attribution a = attribute(b.log, AttributionOptions{"iteration", 0});
  EXPECT_EQ(layer_names(a), (std::vector<std::string>{"conv1", "fc"}));
  EXPECT_NEAR(layer(a, "conv1").forward_ms, 300 * kNs, 1e-12);
  EXPECT_NEAR(layer(a, "conv1").backward_ms, 400 * kNs, 1e-12);
  EXPECT_NEAR(layer(a, "fc").forward_ms, 100 * kNs, 1e-12);
  EXPECT_NEAR(layer(a, "fc").backward_ms, 200 * kNs, 1e-12);
  EXPECT_NEAR(a.unattributed_ms, 40 * kNs, 1e-12);  // loss and gradient accumulation
  EXPECT_EQ(a.activities[4].layer, "conv1");
  EXPECT_EQ(a.activities[4].phase, Phase::backward);
}

// Without user layer ranges every top-level forward op is a layer, keyed by its position in
// the iteration; host-only ops (no GPU work) are left out. aten::view makes no autograd node
// here, so it shares relu's seq: the node belongs to the last op with that seq.
TEST(Attribution, EmitNvtxWithoutLayerRangesKeysTopLevelOps) {
  LogBuilder b;
  for (uint64_t k = 0; k < 2; ++k) {
    const Nanos t = 10000 * (k + 1);
    const uint64_t seq = 100 + 10 * k;
    auto s = [](uint64_t n) { return ", seq = " + std::to_string(n); };
    b.push(1, t, "iteration");
    b.push(1, t + 1, "aten::conv2d" + s(seq));
    b.push(1, t + 2, "aten::convolution" + s(seq));
    b.kernel(1, t + 3, 7, t + 100, t + 300);
    b.pop(1, t + 4);
    b.pop(1, t + 5);
    b.push(1, t + 6, "aten::view" + s(seq + 1));
    b.pop(1, t + 7);
    b.push(1, t + 8, "aten::relu" + s(seq + 1));
    b.kernel(1, t + 9, 7, t + 300, t + 350);
    b.pop(1, t + 10);
    b.push(2, t + 20, "ReluBackward0" + s(seq + 1));
    b.kernel(2, t + 21, 7, t + 400, t + 460);
    b.pop(2, t + 22);
    b.push(2, t + 23, "ConvolutionBackward0" + s(seq));
    b.kernel(2, t + 24, 7, t + 500, t + 900);
    b.pop(2, t + 25);
    b.pop(1, t + 5000);
  }
  const Attribution a = attribute(b.log, AttributionOptions{"iteration", 0});
  EXPECT_EQ(layer_names(a), (std::vector<std::string>{"aten::conv2d#0", "aten::relu#2"}));
  EXPECT_NEAR(layer(a, "aten::conv2d#0").forward_ms, 200 * kNs, 1e-12);
  EXPECT_NEAR(layer(a, "aten::conv2d#0").backward_ms, 400 * kNs, 1e-12);
  EXPECT_NEAR(layer(a, "aten::relu#2").forward_ms, 50 * kNs, 1e-12);
  EXPECT_NEAR(layer(a, "aten::relu#2").backward_ms, 60 * kNs, 1e-12);
}

// Documented choice: a layer's GPU time is the union of its activities' intervals, so work on
// concurrent streams counts once and idle gaps not at all.
TEST(Attribution, OverlappingStreamsCountTheUnionOfIntervals) {
  LogBuilder b;
  b.push(1, 0, "iteration");
  b.push(1, 1, "bwd:fc");
  b.kernel(1, 2, 1, 100, 300);
  b.kernel(1, 3, 2, 200, 400);  // overlaps the first on another stream
  b.kernel(1, 4, 1, 500, 600);  // after a gap
  b.pop(1, 5);
  b.pop(1, 1000);
  const Attribution a = attribute(b.log, AttributionOptions{"iteration", 0});
  EXPECT_NEAR(layer(a, "fc").backward_ms, 400 * kNs, 1e-12);
  EXPECT_NEAR(layer(a, "fc").forward_ms, 0, 1e-12);
}

TEST(Attribution, MemcpyAndMemsetCountLikeKernels) {
  LogBuilder b;
  b.push(1, 0, "iteration");
  b.push(1, 1, "fwd:embed");
  b.kernel(1, 2, 1, 100, 200);
  b.log.api_calls.push_back(ApiCall{500, 1, 3, 4});
  b.log.gpu.push_back(GpuActivity{GpuKind::memcpy, 500, 0, 1, 200, 250, 4096, "HtoD"});
  b.log.api_calls.push_back(ApiCall{501, 1, 5, 6});
  b.log.gpu.push_back(GpuActivity{GpuKind::memset, 501, 0, 1, 250, 260, 4096, ""});
  b.pop(1, 7);
  b.pop(1, 1000);
  const Attribution a = attribute(b.log, AttributionOptions{"iteration", 0});
  EXPECT_NEAR(layer(a, "embed").forward_ms, 160 * kNs, 1e-12);
}

TEST(Attribution, MissingPopIsClosedAtIterationEndWithWarning) {
  LogBuilder b;
  const uint32_t it0 = b.push(1, 0, "iteration");
  b.push(1, 10, "fwd:a");  // never popped
  b.kernel(1, 20, 1, 100, 200);
  b.end(1, it0, 1000);
  b.push(1, 2000, "iteration");
  b.push(1, 2010, "fwd:b");
  b.kernel(1, 2020, 1, 2100, 2150);
  b.pop(1, 2030);
  b.kernel(1, 2040, 1, 2200, 2300);  // in no layer: fwd:a ended with iteration 0
  b.pop(1, 3000);
  const Attribution a = attribute(b.log, AttributionOptions{"iteration", 0});
  EXPECT_TRUE(has_warning(a, "never closed")) << ::testing::PrintToString(a.warnings);
  EXPECT_NEAR(layer(a, "a").forward_ms, 50 * kNs, 1e-12);  // 100 ns over 2 iterations
  EXPECT_NEAR(layer(a, "b").forward_ms, 25 * kNs, 1e-12);
  EXPECT_NEAR(a.unattributed_ms, 50 * kNs, 1e-12);
  bool found = false;
  for (const Range& r : a.ranges) {
    if (r.name == "fwd:a") {
      found = true;
      EXPECT_FALSE(r.closed);
      EXPECT_EQ(r.end, 1000u);
    }
  }
  EXPECT_TRUE(found);
}

TEST(Attribution, UnclosedIterationEndsWhereTheNextStarts) {
  LogBuilder b;
  b.push(1, 0, "iteration");  // never popped
  b.push(1, 10, "fwd:a");
  b.kernel(1, 20, 1, 100, 200);
  b.pop(1, 30);
  const Attribution a = attribute(b.log, AttributionOptions{"iteration", 0});
  EXPECT_TRUE(has_warning(a, "'iteration' range 0 was never closed"));
  EXPECT_NEAR(layer(a, "a").forward_ms, 100 * kNs, 1e-12);
}

TEST(Attribution, ActivityWithoutLaunchRecordIsUnattributed) {
  LogBuilder b;
  b.push(1, 0, "iteration");
  b.push(1, 1, "fwd:a");
  b.kernel(1, 2, 1, 100, 200);
  b.log.gpu.push_back(GpuActivity{GpuKind::kernel, 999, 0, 1, 300, 330, 0, "orphan"});
  b.pop(1, 5);
  b.pop(1, 1000);
  const Attribution a = attribute(b.log, AttributionOptions{"iteration", 0});
  EXPECT_TRUE(has_warning(a, "no launching API call"));
  EXPECT_FALSE(a.activities[1].launched);
  EXPECT_EQ(a.activities[1].iteration, 0);
  EXPECT_NEAR(a.unattributed_ms, 30 * kNs, 1e-12);
}

TEST(Attribution, CustomIterationMarker) {
  LogBuilder b;
  b.push(1, 0, "train_step");
  b.push(1, 1, "fwd:a");
  b.kernel(1, 2, 1, 100, 200);
  b.pop(1, 5);
  b.pop(1, 1000);
  EXPECT_THROW(attribute(b.log, AttributionOptions{"iteration", 0}), InputError);
  const Attribution a = attribute(b.log, AttributionOptions{"train_step", 0});
  EXPECT_NEAR(layer(a, "a").forward_ms, 100 * kNs, 1e-12);
}

TEST(Attribution, NoIterationLeftAfterWarmupIsAnError) {
  const LogBuilder b = two_layer_run({100, 100});
  try {
    attribute(b.log, AttributionOptions{"iteration", 2});
    FAIL() << "expected an InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("2 iterations recorded and 2 dropped"), std::string::npos);
  }
}

TEST(Attribution, DroppedRecordsAndLostRangesAreReported) {
  LogBuilder b = two_layer_run({100});
  b.log.dropped_records = 12;
  b.log.has_nvtx_calls = true;
  b.log.nvtx_calls = NvtxCallCounts{7, 7, 0, 0};  // one more push than recorded ranges
  const Attribution a = attribute(b.log, AttributionOptions{"iteration", 0});
  EXPECT_TRUE(has_warning(a, "CUPTI dropped 12"));
  EXPECT_TRUE(has_warning(a, "opened 7 NVTX ranges but only 5"));
}

}  // namespace
}  // namespace scalecast::profiler
