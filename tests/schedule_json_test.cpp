// Tests of the schedule file: a round trip keeps every field, and corrupt or mismatched files
// are refused with an error naming the field.
#include <gtest/gtest.h>

#include "fixtures.h"
#include "sim/schedule_builder.h"
#include "sim/schedule_json.h"

namespace scalecast {
namespace {

Schedule sample() {
  return build_schedule(testing::uniform_workload(4, 2e6), testing::simple_cluster(2, 2),
                        make_preset("wfbp-ps"), 2, "sample");
}

TEST(ScheduleJson, RoundTripKeepsEveryTask) {
  const Schedule s = sample();
  const auto j = schedule_to_json(s);
  const Schedule back = schedule_from_json(nlohmann::json::parse(j.dump()), "mem");
  EXPECT_EQ(schedule_to_json(back).dump(), j.dump());
  ASSERT_EQ(back.tasks.size(), s.tasks.size());
  EXPECT_EQ(back.gpus(), 4);
  EXPECT_EQ(back.strategy.method, "wfbp-ps");
}

void expect_refused(const std::function<void(nlohmann::json&)>& corrupt, const std::string& fragment) {
  nlohmann::json j = nlohmann::json::parse(schedule_to_json(sample()).dump());
  corrupt(j);
  try {
    schedule_from_json(j, "bad.json");
    FAIL() << "accepted a schedule that should be refused (" << fragment << ")";
  } catch (const ScheduleError& e) {
    EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
    EXPECT_EQ(std::string(e.what()).rfind("bad.json: ", 0), 0u) << e.what();
  }
}

TEST(ScheduleJson, RefusesCorruptFiles) {
  expect_refused([](auto& j) { j["version"] = 99; }, "version");
  expect_refused([](auto& j) { j["format"] = "other"; }, "format");
  expect_refused([](auto& j) { j["gpus"] = 8; }, "gpus");
  expect_refused([](auto& j) { j["tasks"][3]["deps"] = {7}; }, "tasks[3].deps");
  expect_refused([](auto& j) { j["tasks"][2]["id"] = 5; }, "tasks[2].id");
  expect_refused([](auto& j) { j["tasks"][1].erase("duration_s"); }, "tasks[1].duration_s");
  expect_refused([](auto& j) { j["tasks"][0]["kind"] = "dance"; }, "tasks[0].kind");
  expect_refused([](auto& j) { j["cluster"]["net"]["efficiency"] = "high"; }, "cluster.net.efficiency");
  expect_refused([](auto& j) { j["strategy"]["aggregation"] = "gossip"; }, "strategy.aggregation");
}

TEST(ScheduleJson, UnreadableFileIsAnError) {
  EXPECT_THROW(read_schedule_file("/nonexistent/schedule.json"), ScheduleError);
}

}  // namespace
}  // namespace scalecast
