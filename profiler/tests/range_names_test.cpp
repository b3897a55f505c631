// Classification of NVTX range names: the user convention and PyTorch emit_nvtx op ranges
// (seq, op_id and sizes fields, "stashed seq", autograd backward nodes).
#include "profiler/range_names.h"

#include <gtest/gtest.h>

namespace scalecast::profiler {
namespace {

using Kind = RangeName::Kind;

TEST(RangeNames, UserConvention) {
  const RangeName fwd = classify_range("fwd:layer1.0.conv1", "iteration");
  EXPECT_EQ(fwd.kind, Kind::layer);
  EXPECT_EQ(fwd.label, "layer1.0.conv1");
  EXPECT_EQ(fwd.phase, Phase::forward);
  const RangeName bwd = classify_range("bwd:fc", "iteration");
  EXPECT_EQ(bwd.kind, Kind::layer);
  EXPECT_EQ(bwd.phase, Phase::backward);
  const RangeName any = classify_range("layer: conv1 ", "iteration");
  EXPECT_EQ(any.kind, Kind::layer);
  EXPECT_EQ(any.label, "conv1");
  EXPECT_FALSE(any.phase.has_value());
  EXPECT_EQ(classify_range("fwd:", "iteration").kind, Kind::op);  // no name: not a layer
}

TEST(RangeNames, MarkersAndPhases) {
  EXPECT_EQ(classify_range("iteration", "iteration").kind, Kind::iteration);
  EXPECT_EQ(classify_range("step", "step").kind, Kind::iteration);
  EXPECT_EQ(classify_range("iteration", "step").kind, Kind::op);
  const RangeName backward = classify_range("backward", "iteration");
  EXPECT_EQ(backward.kind, Kind::phase);
  EXPECT_EQ(backward.phase, Phase::backward);
  EXPECT_EQ(classify_range("forward", "iteration").phase, Phase::forward);
}

TEST(RangeNames, EmitNvtxForwardOps) {
  const RangeName conv = classify_range("aten::conv2d, seq = 123", "iteration");
  EXPECT_EQ(conv.kind, Kind::op);
  EXPECT_EQ(conv.label, "aten::conv2d");
  EXPECT_EQ(conv.seq, 123u);
  EXPECT_FALSE(conv.phase.has_value());
  const RangeName newer = classify_range(
      "aten::addmm, seq = 7, op_id = 42, sizes = [[64, 10], [64, 2048], [2048, 10]], "
      "input_op_ids = [(40, 0)]",
      "iteration");
  EXPECT_EQ(newer.label, "aten::addmm");
  EXPECT_EQ(newer.seq, 7u);
  const RangeName plain = classify_range("aten::empty", "iteration");
  EXPECT_EQ(plain.label, "aten::empty");
  EXPECT_FALSE(plain.seq.has_value());
  EXPECT_FALSE(classify_range("aten::view, sizes = [[1, 2]]", "iteration").seq.has_value());
  // "aten::convolution_backward" is an op called inside a backward node, not a node itself.
  EXPECT_FALSE(
      classify_range("aten::convolution_backward, seq = 9", "iteration").phase.has_value());
}

TEST(RangeNames, EmitNvtxBackwardNodes) {
  const RangeName node = classify_range("ConvolutionBackward0, seq = 123", "iteration");
  EXPECT_EQ(node.kind, Kind::op);
  EXPECT_EQ(node.label, "ConvolutionBackward0");
  EXPECT_EQ(node.seq, 123u);
  EXPECT_EQ(node.phase, Phase::backward);
  const RangeName with_op_id = classify_range("AddmmBackward0, op_id = 3, seq = 5", "iteration");
  EXPECT_EQ(with_op_id.seq, 5u);
  EXPECT_EQ(with_op_id.phase, Phase::backward);
  const RangeName stashed = classify_range("MulBackward0, stashed seq=77", "iteration");
  EXPECT_EQ(stashed.seq, 77u);
  EXPECT_EQ(stashed.phase, Phase::backward);
  const RangeName engine =
      classify_range("autograd::engine::evaluate_function: ReluBackward0, seq = 4", "iteration");
  EXPECT_EQ(engine.phase, Phase::backward);
  EXPECT_EQ(engine.seq, 4u);
  const RangeName accumulate = classify_range("torch::autograd::AccumulateGrad", "iteration");
  EXPECT_EQ(accumulate.phase, Phase::backward);
  EXPECT_FALSE(accumulate.seq.has_value());
}

}  // namespace
}  // namespace scalecast::profiler
