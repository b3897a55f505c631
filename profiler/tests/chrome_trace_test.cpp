// The Chrome trace of a profiled run: a track per GPU stream, NVTX ranges on their own track
// per host thread, demangled kernel names tagged with their layer, phase and iteration.
#include "profiler/chrome_trace.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "profiler/tests/log_builder.h"

namespace scalecast::profiler {
namespace {

TEST(ChromeTrace, TracksPerStreamAndNvtxRanges) {
  testing::LogBuilder b;
  b.log.devices.push_back(Device{0, "NVIDIA H100 80GB HBM3"});
  b.push(5, 1000, "iteration");
  b.push(5, 1010, "fwd:fc1");
  b.kernel(5, 1020, 13, 2000, 3000, "_Z9bias_reluPfPKfii");
  b.kernel(5, 1030, 14, 2500, 3500, "sm90_gemm");
  b.pop(5, 1040);
  b.pop(5, 9000);
  const Attribution attribution = attribute(b.log, AttributionOptions{"iteration", 0});
  std::ostringstream out;
  write_chrome_trace(out, b.log, attribution);
  const nlohmann::json trace = nlohmann::json::parse(out.str());
  std::set<std::string> track_names;
  const nlohmann::json* bias_relu = nullptr;
  const nlohmann::json* range = nullptr;
  for (const nlohmann::json& e : trace.at("traceEvents")) {
    if (e.at("ph") == "M") track_names.insert(e.at("args").at("name").get<std::string>());
    if (e.at("ph") == "X" && e.at("name") == "bias_relu(float*, float const*, int, int)")
      bias_relu = &e;
    if (e.at("ph") == "X" && e.at("name") == "fwd:fc1") range = &e;
  }
  EXPECT_EQ(track_names,
            (std::set<std::string>{"NVTX ranges", "thread 5", "GPU 0: NVIDIA H100 80GB HBM3",
                                   "stream 13", "stream 14"}));
  ASSERT_NE(bias_relu, nullptr);
  EXPECT_EQ(bias_relu->at("tid"), 13);
  EXPECT_DOUBLE_EQ(bias_relu->at("ts").get<double>(), 1.0);  // us after the first record
  EXPECT_DOUBLE_EQ(bias_relu->at("dur").get<double>(), 1.0);
  EXPECT_EQ(bias_relu->at("args").at("layer"), "fc1");
  EXPECT_EQ(bias_relu->at("args").at("phase"), "forward");
  EXPECT_EQ(bias_relu->at("args").at("iteration"), 0);
  ASSERT_NE(range, nullptr);
  EXPECT_EQ(range->at("tid"), 5);
  EXPECT_DOUBLE_EQ(range->at("dur").get<double>(), 0.03);
  EXPECT_NE(range->at("pid"), bias_relu->at("pid"));
}

}  // namespace
}  // namespace scalecast::profiler
