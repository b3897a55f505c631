// Tests of the torch.profiler trace importer on hand-made traces in the two formats: Kineto's
// fields (cpu_op "Sequence number", "Input Dims"/"Input type" with record_shapes, kernels and
// their launches by "correlation", "nn.Module: NAME" python_function ranges) and the legacy
// profiler's (names and whole microseconds only), plus the parameter list and bad input: every
// error one line naming the file and the event's JSON pointer or the list's line and column.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "profiler/parameter_list.h"
#include "profiler/profile_csv.h"
#include "profiler/torch_events.h"
#include "profiler/torch_import.h"
#include "sim/formats/profile_csv.h"
#include "sim/io/input_error.h"

namespace scalecast::profiler {
namespace {

// One step of a Linear + ReLU on a GPU: forward on thread 10, backward on the autograd thread 11.
const char* kKineto = R"({
  "schemaVersion": 1,
  "deviceProperties": [{"id": 0, "name": "NVIDIA A100-SXM4-80GB"}],
  "traceEvents": [
    {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#1", "pid": 10, "tid": 10, "ts": 0, "dur": 1000},
    {"ph": "X", "cat": "python_function", "name": "nn.Module: Linear_0", "pid": 10, "tid": 10, "ts": 10, "dur": 100, "args": {"Python id": 3}},
    {"ph": "X", "cat": "cpu_op", "name": "aten::linear", "pid": 10, "tid": 10, "ts": 12, "dur": 88, "args": {"Sequence number": 5, "Fwd thread id": 0}},
    {"ph": "X", "cat": "cpu_op", "name": "aten::addmm", "pid": 10, "tid": 10, "ts": 20, "dur": 70, "args": {"Sequence number": 5, "Fwd thread id": 0, "Input Dims": [[4], [2, 3], [3, 4]], "Input type": ["c10::Half", "c10::Half", "c10::Half"]}},
    {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 10, "tid": 10, "ts": 30, "dur": 5, "args": {"correlation": 1}},
    {"ph": "X", "cat": "python_function", "name": "torch/nn/modules/activation.py(101): forward", "pid": 10, "tid": 10, "ts": 119, "dur": 42},
    {"ph": "X", "cat": "python_function", "name": "nn.Module: ReLU_0", "pid": 10, "tid": 10, "ts": 120, "dur": 40},
    {"ph": "X", "cat": "cpu_op", "name": "aten::relu", "pid": 10, "tid": 10, "ts": 125, "dur": 30, "args": {"Sequence number": 6}},
    {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 10, "tid": 10, "ts": 130, "dur": 2, "args": {"correlation": 2}},
    {"ph": "X", "cat": "cpu_op", "name": "aten::mse_loss", "pid": 10, "tid": 10, "ts": 170, "dur": 20, "args": {"Sequence number": 7}},
    {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 10, "tid": 10, "ts": 175, "dur": 2, "args": {"correlation": 3}},
    {"ph": "X", "cat": "cpu_op", "name": "autograd::engine::evaluate_function: MseLossBackward0", "pid": 10, "tid": 11, "ts": 300, "dur": 20},
    {"ph": "X", "cat": "cpu_op", "name": "MseLossBackward0", "pid": 10, "tid": 11, "ts": 301, "dur": 18, "args": {"Sequence number": 7, "Fwd thread id": 1}},
    {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 10, "tid": 11, "ts": 305, "dur": 2, "args": {"correlation": 4}},
    {"ph": "X", "cat": "cpu_op", "name": "autograd::engine::evaluate_function: ReluBackward0", "pid": 10, "tid": 11, "ts": 330, "dur": 30},
    {"ph": "X", "cat": "cpu_op", "name": "ReluBackward0", "pid": 10, "tid": 11, "ts": 331, "dur": 28, "args": {"Sequence number": 6, "Fwd thread id": 1}},
    {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 10, "tid": 11, "ts": 335, "dur": 2, "args": {"correlation": 5}},
    {"ph": "X", "cat": "cpu_op", "name": "autograd::engine::evaluate_function: AddmmBackward0", "pid": 10, "tid": 11, "ts": 370, "dur": 50},
    {"ph": "X", "cat": "cpu_op", "name": "AddmmBackward0", "pid": 10, "tid": 11, "ts": 371, "dur": 48, "args": {"Sequence number": 5, "Fwd thread id": 1}},
    {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 10, "tid": 11, "ts": 380, "dur": 2, "args": {"correlation": 6}},
    {"ph": "X", "cat": "cpu_op", "name": "autograd::engine::evaluate_function: torch::autograd::AccumulateGrad", "pid": 10, "tid": 11, "ts": 430, "dur": 10},
    {"ph": "X", "cat": "cpu_op", "name": "torch::autograd::AccumulateGrad", "pid": 10, "tid": 11, "ts": 431, "dur": 8, "args": {"Input Dims": [[4, 3]], "Input type": ["c10::Half"]}},
    {"ph": "X", "cat": "cpu_op", "name": "autograd::engine::evaluate_function: torch::autograd::AccumulateGrad", "pid": 10, "tid": 11, "ts": 445, "dur": 10},
    {"ph": "X", "cat": "cpu_op", "name": "torch::autograd::AccumulateGrad", "pid": 10, "tid": 11, "ts": 446, "dur": 8, "args": {"Input Dims": [[4]], "Input type": ["c10::Half"]}},
    {"ph": "X", "cat": "user_annotation", "name": "Optimizer.step#Adam.step", "pid": 10, "tid": 10, "ts": 500, "dur": 100},
    {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 10, "tid": 10, "ts": 590, "dur": 2, "args": {"correlation": 7}},
    {"ph": "X", "cat": "kernel", "name": "ampere_fp16_gemm", "pid": 0, "tid": 7, "ts": 40, "dur": 50, "args": {"correlation": 1, "device": 0, "stream": 7}},
    {"ph": "X", "cat": "kernel", "name": "relu_kernel", "pid": 0, "tid": 7, "ts": 140, "dur": 10, "args": {"correlation": 2}},
    {"ph": "X", "cat": "kernel", "name": "mse_kernel", "pid": 0, "tid": 7, "ts": 180, "dur": 5, "args": {"correlation": 3}},
    {"ph": "X", "cat": "kernel", "name": "mse_backward", "pid": 0, "tid": 7, "ts": 310, "dur": 5, "args": {"correlation": 4}},
    {"ph": "X", "cat": "kernel", "name": "relu_backward", "pid": 0, "tid": 7, "ts": 340, "dur": 10, "args": {"correlation": 5}},
    {"ph": "X", "cat": "kernel", "name": "gemm_backward", "pid": 0, "tid": 7, "ts": 390, "dur": 40, "args": {"correlation": 6}},
    {"ph": "X", "cat": "kernel", "name": "adam_kernel", "pid": 0, "tid": 7, "ts": 1100, "dur": 50, "args": {"correlation": 7}},
    {"ph": "X", "cat": "gpu_user_annotation", "name": "ProfilerStep#1", "pid": 0, "tid": 7, "ts": 0, "dur": 1150},
    {"ph": "s", "cat": "ac2g", "name": "ac2g", "pid": 10, "tid": 10, "ts": 30, "id": 1}
  ]
})";

TEST(TorchImport, KinetoTraceWithKernelsSequenceNumbersAndShapes) {
  const TraceImport imported = import_torch_trace(parse_torch_trace(kKineto, "k.json"));
  const Profile& p = imported.profile;
  EXPECT_TRUE(imported.gpu_times);
  EXPECT_TRUE(imported.shapes);
  EXPECT_EQ(imported.accumulate_grads, 2);
  EXPECT_TRUE(imported.warnings.empty());
  ASSERT_EQ(p.layers.size(), 2u);
  EXPECT_EQ(p.layers[0].name, "Linear_0");
  EXPECT_DOUBLE_EQ(p.layers[0].forward_ms, 0.050);   // its kernel, not its CPU op
  EXPECT_DOUBLE_EQ(p.layers[0].backward_ms, 0.040);
  EXPECT_EQ(p.layers[0].grad_tensor_bytes, (std::vector<int64_t>{24, 8}));  // fp16 [4, 3], [4]
  EXPECT_EQ(p.layers[0].grad_bytes, 32);
  EXPECT_EQ(p.layers[1].name, "ReLU_0");
  EXPECT_DOUBLE_EQ(p.layers[1].forward_ms, 0.010);
  EXPECT_DOUBLE_EQ(p.layers[1].backward_ms, 0.010);
  EXPECT_EQ(p.layers[1].grad_tensors, 0);
  EXPECT_DOUBLE_EQ(imported.outside_layers_ms, 0.060);  // loss, its backward, Adam's kernel
  EXPECT_DOUBLE_EQ(p.step_s, 1150e-6);  // to the end of the kernel the step launched
  EXPECT_EQ(p.iterations, 1);
  EXPECT_EQ(p.precision, "fp16");
  EXPECT_EQ(p.optimizer, "adam");
  EXPECT_EQ(p.gpu, "NVIDIA A100-SXM4-80GB");
}

// The legacy profiler: no arguments, whole microseconds rounded apart (a node's own call may end
// 1 us after its node range), one autograd node per aten::convolution with aten::_convolution
// inside it. Backward nodes run in reverse order of their forward ops.
const char* kLegacy = R"([
  {"name": "ProfilerStep#1", "ph": "X", "ts": 0, "dur": 200, "tid": 1, "pid": "CPU functions", "args": {}},
  {"name": "fwd:conv1", "ph": "X", "ts": 10, "dur": 30, "tid": 1, "pid": "CPU functions", "args": {}},
  {"name": "aten::conv2d", "ph": "X", "ts": 11, "dur": 28, "tid": 1, "pid": "CPU functions", "args": {}},
  {"name": "aten::convolution", "ph": "X", "ts": 12, "dur": 26, "tid": 1, "pid": "CPU functions", "args": {}},
  {"name": "aten::_convolution", "ph": "X", "ts": 13, "dur": 24, "tid": 1, "pid": "CPU functions", "args": {}},
  {"name": "fwd:conv2", "ph": "X", "ts": 45, "dur": 15, "tid": 1, "pid": "CPU functions", "args": {}},
  {"name": "aten::convolution", "ph": "X", "ts": 46, "dur": 12, "tid": 1, "pid": "CPU functions", "args": {}},
  {"name": "aten::_convolution", "ph": "X", "ts": 47, "dur": 10, "tid": 1, "pid": "CPU functions", "args": {}},
  {"name": "ConvolutionBackward0", "ph": "X", "ts": 100, "dur": 21, "tid": 1, "pid": "CPU functions", "args": {}},
  {"name": "autograd::engine::evaluate_function: ConvolutionBackward0", "ph": "X", "ts": 100, "dur": 20, "tid": 1, "pid": "CPU functions", "args": {}},
  {"name": "autograd::engine::evaluate_function: torch::autograd::AccumulateGrad", "ph": "X", "ts": 121, "dur": 3, "tid": 1, "pid": "CPU functions", "args": {}},
  {"name": "autograd::engine::evaluate_function: ConvolutionBackward0", "ph": "X", "ts": 125, "dur": 25, "tid": 1, "pid": "CPU functions", "args": {}},
  {"name": "ConvolutionBackward0", "ph": "X", "ts": 125, "dur": 25, "tid": 1, "pid": "CPU functions", "args": {}},
  {"name": "Optimizer.step#SGD.step", "ph": "X", "ts": 160, "dur": 30, "tid": 1, "pid": "CPU functions", "args": {}}
])";

TEST(TorchImport, LegacyTraceMatchesNodesByNameInReverseOrder) {
  const TraceImport imported = import_torch_trace(parse_torch_trace(kLegacy, "l.json"));
  const Profile& p = imported.profile;
  EXPECT_FALSE(imported.gpu_times);
  EXPECT_FALSE(imported.shapes);  // AccumulateGrad without its gradient's shape
  EXPECT_EQ(imported.accumulate_grads, 1);
  ASSERT_EQ(p.layers.size(), 2u);
  EXPECT_EQ(p.layers[0].name, "conv1");
  EXPECT_DOUBLE_EQ(p.layers[0].forward_ms, 0.028);   // aten::conv2d and what it holds
  EXPECT_DOUBLE_EQ(p.layers[0].backward_ms, 0.025);  // the second node
  EXPECT_EQ(p.layers[1].name, "conv2");
  EXPECT_DOUBLE_EQ(p.layers[1].forward_ms, 0.012);
  // The first node and its call (to 121), and the AccumulateGrad after it (121 to 124).
  EXPECT_DOUBLE_EQ(p.layers[1].backward_ms, 0.024);
  EXPECT_EQ(p.optimizer, "sgd");
  EXPECT_EQ(p.precision, "");
  EXPECT_EQ(p.gpu, "");
  EXPECT_DOUBLE_EQ(p.step_s, 200e-6);
}

TEST(TorchImport, NestingToleratesLegacyRounding) {
  const TorchTrace trace = parse_torch_trace(kLegacy, "l.json");
  std::vector<EventRole> roles;
  for (const TraceEvent& e : trace.events) roles.push_back(classify_event(e));
  const std::vector<int> parent = nest_events(trace.events, roles);
  EXPECT_EQ(parent[0], -1);
  EXPECT_EQ(parent[4], 3);  // aten::_convolution in aten::convolution
  EXPECT_EQ(parent[8], 9);  // the call ending 1 us late stays in its node (same start: node outside)
  EXPECT_EQ(parent[10], 0); // the next node starts after the previous ended
  EXPECT_EQ(roles[13].role, Role::optimizer);
  EXPECT_EQ(roles[13].label, "SGD");
  EXPECT_EQ(roles[1].role, Role::layer);
  EXPECT_EQ(roles[1].label, "conv1");
}

TEST(TorchImport, WithoutStepsTheWholeTraceIsOneIteration) {
  const std::string text = R"([
    {"name": "fwd:a", "ph": "X", "ts": 5, "dur": 10, "tid": 1, "pid": 1},
    {"name": "aten::mul", "ph": "X", "ts": 6, "dur": 4, "tid": 1, "pid": 1}])";
  const TraceImport imported = import_torch_trace(parse_torch_trace(text, "t.json"));
  EXPECT_EQ(imported.profile.iterations, 1);
  EXPECT_DOUBLE_EQ(imported.profile.layers.at(0).forward_ms, 0.004);
  ASSERT_EQ(imported.warnings.size(), 1u);
  EXPECT_NE(imported.warnings[0].find("no ProfilerStep ranges"), std::string::npos);
}

std::string error_of(const std::string& text) {
  try {
    import_torch_trace(parse_torch_trace(text, "t.json"));
  } catch (const InputError& e) {
    EXPECT_TRUE(e.names_its_source());
    return e.what();
  }
  return "";
}

TEST(TorchImport, BadTracesNameTheFileAndEvent) {
  EXPECT_EQ(error_of("[\n{\"name\": \"a\",\n oops]")
                .rfind("t.json: expected valid JSON, got parse error at line 3", 0),
            0u);
  EXPECT_EQ(error_of(R"([{"name": "a", "ph": "X", "ts": 1}])"),
            "t.json: /0/dur: expected a value for this required key, got nothing");
  EXPECT_EQ(error_of(R"({"traceEvents": 3})"), "t.json: /traceEvents: expected an array, got '3'");
  EXPECT_EQ(error_of(R"("x")"), "t.json: top level: expected a list of events or {\"traceEvents\": [...]}, got 'x'");
  EXPECT_EQ(error_of(R"({"traceEvents": [7]})"), "t.json: /traceEvents/0: expected an event object, got '7'");
  EXPECT_EQ(error_of(R"([])"), "t.json: expected profiler events, got none");
  EXPECT_NE(error_of(R"([{"name": "aten::mul", "ph": "X", "ts": 1, "dur": 2, "tid": 1, "pid": 1}])")
                .find("t.json: expected work inside layer ranges, got none"),
            std::string::npos);
}

// Every number is bounded as the profile CSV's reader bounds it: times, ids, shapes.
TEST(TorchImport, NumbersOutOfRangeAreRefused) {
  const auto event = [](const std::string& fields) {
    return R"({"traceEvents": [{"ph": "X", "name": "fwd:a", "ts": 1, "dur": 2},
                               {"ph": "X", "cat": "cpu_op", "name": "aten::mul", )" + fields + "}]}";
  };
  EXPECT_EQ(error_of(event(R"("ts": 1, "dur": 1e300)")),
            "t.json: /traceEvents/1/dur: expected a number of microseconds in [0, 1 h], got '1e+300'");
  EXPECT_EQ(error_of(event(R"("ts": 1, "dur": -1)")),
            "t.json: /traceEvents/1/dur: expected a number of microseconds in [0, 1 h], got '-1'");
  EXPECT_EQ(error_of(event(R"("ts": -5, "dur": 1)")),
            "t.json: /traceEvents/1/ts: expected a number of microseconds in [0, 1e16], got '-5'");
  EXPECT_EQ(error_of(event(R"("ts": "1", "dur": 1)")),
            "t.json: /traceEvents/1/ts: expected a number of microseconds in [0, 1e16], got '1'");
  EXPECT_EQ(error_of(event(R"("ts": 1, "dur": 1, "args": {"Sequence number": 1.5})")),
            "t.json: /traceEvents/1/args/Sequence number: expected an integer id, got '1.5'");
  EXPECT_EQ(error_of(event(R"("ts": 1, "dur": 1, "args": {"correlation": "12a"})")),
            "t.json: /traceEvents/1/args/correlation: expected an integer id, got '12a'");
  EXPECT_EQ(error_of(event(R"("ts": 1, "dur": 1, "args": {"correlation": 18446744073709551615})")),
            "t.json: /traceEvents/1/args/correlation: expected an integer id, got '18446744073709551615'");
  EXPECT_EQ(error_of(event(R"("ts": 1, "dur": 1, "args": [])")),
            "t.json: /traceEvents/1/args: expected an object, got an array");
  // Steps of more than an hour: each event is at most 1 h, the work launched in a step is not.
  EXPECT_EQ(error_of(R"([{"ph": "X", "name": "ProfilerStep#1", "ts": 0, "dur": 10},
                         {"ph": "X", "name": "fwd:a", "ts": 1, "dur": 2},
                         {"ph": "X", "name": "aten::mul", "ts": 1, "dur": 1},
                         {"ph": "X", "name": "aten::add", "ts": 4, "dur": 3600000000}])")
                .rfind("t.json: expected ProfilerStep iterations in [0, 1 h], got 3600.000004 s", 0),
            0u);
}

// Steps that overlap, a layer range past its step's end (it would take the next steps' work) and
// a key given twice in one object (the parser would keep the last) are refused where they are.
TEST(TorchImport, OverlappingStepsLongRangesAndRepeatedKeysAreRefused) {
  EXPECT_EQ(error_of(R"([{"ph": "X", "name": "ProfilerStep#1", "ts": 0, "dur": 10},
                         {"ph": "X", "name": "ProfilerStep#2", "ts": 5, "dur": 10},
                         {"ph": "X", "name": "fwd:a", "ts": 1, "dur": 2},
                         {"ph": "X", "name": "aten::mul", "ts": 1, "dur": 1}])"),
            "t.json: /1/ts: expected a ProfilerStep that starts once the one before it ends (/0 ends at 10.000 us), "
            "got one starting at 5.000 us");
  EXPECT_EQ(error_of(R"([{"ph": "X", "name": "ProfilerStep#1", "ts": 0, "dur": 10},
                         {"ph": "X", "name": "ProfilerStep#2", "ts": 10, "dur": 10},
                         {"ph": "X", "name": "fwd:a", "ts": 1, "dur": 1000000},
                         {"ph": "X", "name": "aten::mul", "ts": 1, "dur": 1}])"),
            "t.json: /2/dur: expected a layer range within its ProfilerStep (/0, ending at 10.000 us), got one ending "
            "999991.000 us after it");
  EXPECT_EQ(error_of(R"([{"ph": "X", "name": "ProfilerStep#1", "ts": 0, "dur": 10},
                         {"ph": "X", "name": "fwd:a", "ts": 1, "dur": 2, "dur": 3},
                         {"ph": "X", "name": "aten::mul", "ts": 1, "dur": 1}])"),
            "t.json: /1/dur: expected each key once in an object, got it twice");
  EXPECT_EQ(error_of(R"({"traceEvents": [{"ph": "X", "name": "fwd:a", "ts": 1, "dur": 2}], "traceEvents": []})"),
            "t.json: /traceEvents: expected each key once in an object, got it twice");
}

TEST(TorchImport, LayerNamesMustBeProfileFields) {
  // Commas, quotes and a leading '#' are quoted in the profile CSV and read back as they were.
  const TraceImport imported = import_torch_trace(parse_torch_trace(
      R"([{"ph": "X", "name": "fwd:a,\"b\"", "ts": 1, "dur": 2},
          {"ph": "X", "name": "aten::mul", "ts": 1, "dur": 2},
          {"ph": "X", "name": "fwd:#c", "ts": 4, "dur": 2},
          {"ph": "X", "name": "aten::mul", "ts": 4, "dur": 2}])", "t.json"));
  std::ostringstream csv;
  write_profile_csv(csv, imported.profile);
  const scalecast::Profile back = scalecast::parse_profile_csv(csv.str(), "p.csv", 4);
  ASSERT_EQ(back.workload.layers.size(), 2u);
  EXPECT_EQ(back.workload.layers[0].name, "a,\"b\"");
  EXPECT_EQ(back.workload.layers[1].name, "#c");
  EXPECT_EQ(error_of(R"({"deviceProperties": [{"name": "A100\nx"}], "traceEvents": []})"),
            "t.json: /deviceProperties/0/name: expected a device name without line breaks or "
            "control characters, got 'A100\\nx'");
}

// A gradient's shape (record_shapes) of more than 1 PB, or of a negative extent.
TEST(TorchImport, GradientShapesAreBounded) {
  const auto with_shape = [](const std::string& dims) {
    return R"({"traceEvents": [
      {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#1", "pid": 1, "tid": 1, "ts": 0, "dur": 100},
      {"ph": "X", "cat": "user_annotation", "name": "fwd:a", "pid": 1, "tid": 1, "ts": 1, "dur": 10},
      {"ph": "X", "cat": "cpu_op", "name": "aten::mul", "pid": 1, "tid": 1, "ts": 2, "dur": 5, "args": {"Sequence number": 3}},
      {"ph": "X", "cat": "cpu_op", "name": "autograd::engine::evaluate_function: MulBackward0", "pid": 1, "tid": 2, "ts": 20, "dur": 5},
      {"ph": "X", "cat": "cpu_op", "name": "MulBackward0", "pid": 1, "tid": 2, "ts": 21, "dur": 3, "args": {"Sequence number": 3}},
      {"ph": "X", "cat": "cpu_op", "name": "autograd::engine::evaluate_function: torch::autograd::AccumulateGrad", "pid": 1, "tid": 2, "ts": 30, "dur": 5},
      {"ph": "X", "cat": "cpu_op", "name": "torch::autograd::AccumulateGrad", "pid": 1, "tid": 2, "ts": 31, "dur": 3,
       "args": {"Input Dims": )" +
           dims + R"(, "Input type": ["float"]}}]})";
  };
  const TraceImport good = import_torch_trace(parse_torch_trace(with_shape("[[1000, 1000]]"), "t.json"));
  EXPECT_EQ(good.profile.layers.at(0).grad_tensor_bytes, (std::vector<int64_t>{4000000}));
  EXPECT_EQ(error_of(with_shape("[[1000000, 1000000, 1000]]")),
            "t.json: /traceEvents/6/args/Input Dims/0: expected a tensor shape of extents >= 0 "
            "(the model's gradients at most 1 PB in all), got [1000000, 1000000, 1000]");
  EXPECT_EQ(error_of(with_shape("[[4, -3]]")),
            "t.json: /traceEvents/6/args/Input Dims/0: expected a tensor shape of extents >= 0 "
            "(the model's gradients at most 1 PB in all), got [4, -3]");
  EXPECT_EQ(error_of(with_shape("[[[4], [3]]]")),
            "t.json: /traceEvents/6/args/Input Dims/0: expected a tensor shape of extents >= 0 "
            "(the model's gradients at most 1 PB in all), got no tensor shape");
}

class ParameterList : public ::testing::Test {
 protected:
  // The list of `text` in a file of its own; returns its path.
  std::string write(const std::string& text) {
    const std::string path = ::testing::TempDir() + "parameters_" + std::to_string(files_++) + ".csv";
    std::ofstream(path) << text;
    return path;
  }

  std::string error(const std::string& text) {
    const std::string path = write(text);
    try {
      read_parameter_list(path);
    } catch (const InputError& e) {
      EXPECT_TRUE(e.names_its_source());
      const std::string what = e.what();
      return what.rfind(path, 0) == 0 ? "p.csv" + what.substr(path.size()) : what;
    }
    return "";
  }

 private:
  int files_ = 0;
};

TEST_F(ParameterList, GradientsGoToTheLayerOfTheLongestModulePrefix) {
  const std::vector<Parameter> list = read_parameter_list(
      write("parameter,elements,dtype\n"
            "block.self_attn.in_proj_weight,3072,torch.float32\n"
            "block.self_attn.out_proj.weight,1024,torch.float32\n"
            "block.norm1.weight,32,torch.float\n"
            "scale,1,torch.float32\n"));
  Profile profile;
  profile.layers = {ProfileLayer{"block", 1, 1, 0, 0, 0, 0, {}},
                    ProfileLayer{"block.self_attn", 1, 1, 0, 0, 0, 0, {}}};
  const std::vector<std::string> warnings = assign_parameters(profile, list);
  EXPECT_EQ(profile.layers[1].grad_tensor_bytes, (std::vector<int64_t>{12288, 4096}));
  EXPECT_EQ(profile.layers[0].grad_tensor_bytes, (std::vector<int64_t>{128}));  // norm1 not traced
  EXPECT_EQ(profile.precision, "fp32");
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("1 parameters belong to no profiled layer"), std::string::npos);
  EXPECT_NE(warnings[0].find("'scale'"), std::string::npos);
}

TEST_F(ParameterList, BadListsNameTheLineAndColumn) {
  EXPECT_EQ(error("name,size\n"),
            "p.csv:1: header: expected the columns parameter, elements and dtype (one row per "
            "named_parameters() entry), got others");
  EXPECT_EQ(error("parameter,elements,dtype\nw,abc,torch.float32\n"),
            "p.csv:2: elements: expected an integer in [1, 250000000000000] (the model's gradients "
            "at most 1 PB in all), got 'abc'");
  EXPECT_EQ(error("parameter,elements,dtype\nw,0,torch.float32\n"),
            "p.csv:2: elements: expected an integer in [1, 250000000000000] (the model's gradients "
            "at most 1 PB in all), got '0'");
  EXPECT_EQ(error("parameter,elements,dtype\nw,99999999999999999999,torch.float32\n"),
            "p.csv:2: elements: expected an integer in [1, 250000000000000] (the model's gradients "
            "at most 1 PB in all), got '99999999999999999999'");
  // What is left of the 1 PB after the first row.
  EXPECT_EQ(error("parameter,elements,dtype\nw,200000000000000,torch.float32\nv,60000000000000,torch.float32\n"),
            "p.csv:3: elements: expected an integer in [1, 50000000000000] (the model's gradients "
            "at most 1 PB in all), got '60000000000000'");
  EXPECT_EQ(error("parameter,elements,dtype\nw,4,torch.int64\n")
                .rfind("p.csv:2: dtype: expected a floating-point", 0),
            0u);
  // One gradient element size per profile: fp32 weights with an fp16 bias have no precision a
  // scenario could read them at (float and float32, half and bfloat16, are alike).
  EXPECT_EQ(error("parameter,elements,dtype\nw,1000,torch.float32\nb,9,torch.float16\n"),
            "p.csv:3: dtype: expected a dtype of 4 bytes like torch.float32 before it (a profile carries one "
            "gradient precision), got 'torch.float16'");
  EXPECT_EQ(error("parameter,elements,dtype\nw,1000,torch.half\nb,9,torch.bfloat16\n"), "");
  EXPECT_EQ(error("parameter,elements,dtype\nw,4,torch.float32\nw,4,torch.float32\n"),
            "p.csv:3: parameter: expected each parameter once, got 'w'");
  EXPECT_EQ(error("parameter,elements,dtype\n,4,torch.float32\n"), "p.csv:2: parameter: expected a value, got ''");
  EXPECT_EQ(error("parameter,elements,dtype\nw,4\n"), "p.csv:2: expected 3 fields as in the header, got 2");
  EXPECT_EQ(error(""), "p.csv:1: expected a header row, got an empty file");
  EXPECT_EQ(error("parameter,elements,dtype\n"), "p.csv: expected at least one parameter row, got none");
}

}  // namespace
}  // namespace scalecast::profiler
