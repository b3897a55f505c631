// Timeline JSON: what is written reads back the same, and a corrupt or foreign file is refused
// with the file and the field named.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <sstream>

#include "sim/collectives/allreduce_algorithm.h"
#include "sim/formats/timeline_json.h"
#include "sim/io/input_error.h"

namespace scalecast {
namespace {

Schedule two_iterations() {
  Schedule s;
  s.scenario = "test";
  s.model = "m";
  s.strategy.method = "wfbp-allreduce";
  s.cluster.nodes = 2;
  s.iterations = 2;
  for (int it = 0; it < 2; ++it) {
    Task c;
    c.id = static_cast<int>(s.tasks.size());
    c.kind = TaskKind::backward;
    c.name = s.add_name("bwd");
    c.iteration = it;
    s.tasks.push_back(c);
    Task a;
    a.id = c.id + 1;
    a.kind = TaskKind::comm;
    a.op = CommOp::allreduce;
    a.name = s.add_name("allreduce #0");
    a.iteration = it;
    a.bytes = 4096;
    a.algorithm = &collectives::allreduce_algorithm("ring");
    a.deps = {c.id};
    s.tasks.push_back(a);
  }
  return s;
}

std::string write_temp(const std::string& text) {
  static int n = 0;
  const std::string path = ::testing::TempDir() + "timeline_" + std::to_string(n++) + ".json";
  std::ofstream(path) << text;
  return path;
}

TEST(TimelineJson, RoundTrip) {
  const Schedule s = two_iterations();
  Timeline tl;
  tl.backend = "executor-gloo";
  tl.notes = {"a note"};
  tl.events = {{0, 0, "compute", 0, 0.1}, {1, 1, "rank 1 collective", 0.1, 0.25}, {2, -1, "compute", 0.3, 0.4}};
  std::ostringstream out;
  write_timeline_json(out, s, tl);
  const TimelineFile f = read_timeline_json(write_temp(out.str()));
  EXPECT_EQ(f.timeline.backend, "executor-gloo");
  EXPECT_EQ(f.method, "wfbp-allreduce");
  EXPECT_EQ(f.gpus, 2);
  EXPECT_EQ(f.iterations, 2);
  ASSERT_EQ(f.tasks.size(), 4u);
  EXPECT_EQ(f.tasks[1].op, CommOp::allreduce);
  EXPECT_EQ(f.tasks[1].bytes, 4096);
  EXPECT_EQ(f.tasks[3].iteration, 1);
  ASSERT_EQ(f.timeline.events.size(), 3u);
  EXPECT_EQ(f.timeline.events[1].rank, 1);
  EXPECT_EQ(f.timeline.events[1].track, "rank 1 collective");
  EXPECT_DOUBLE_EQ(f.timeline.events[1].end_s, 0.25);
  EXPECT_EQ(f.timeline.notes, tl.notes);
}

void expect_refused(const std::string& text, const std::string& mention) {
  const std::string path = write_temp(text);
  try {
    read_timeline_json(path);
    FAIL() << "accepted: " << text;
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find(mention), std::string::npos) << e.what();
  }
}

TEST(TimelineJson, RefusesCorruptFiles) {
  std::ostringstream out;
  write_timeline_json(out, two_iterations(), Timeline{"analytical", {{1, -1, "collective", 0, 1}}, {}, {1}});
  const std::string good = out.str();
  auto replaced = [&](const std::string& from, const std::string& to) {
    std::string t = good;
    t.replace(t.find(from), from.size(), to);
    return t;
  };
  expect_refused("{", "expected valid JSON");
  expect_refused(replaced("\"scalecast-timeline\"", "\"scalecast-schedule\""), "format");
  expect_refused(replaced("\"version\": " + std::to_string(kTimelineFormatVersion), "\"version\": 99"), "version");
  expect_refused(replaced("\"task\": 1", "\"task\": 9"), "/events/0/task: expected an integer in [0, 3], got '9'");
  expect_refused(replaced("\"end_s\": 1", "\"end_s\": -1"), "/events/0/end_s: expected an end no earlier than start_s");
  expect_refused(replaced("\"op\": \"allreduce\"", "\"op\": \"gather\""), "/tasks/1/op: expected an operation");
  expect_refused(replaced("\"id\": 1", "\"id\": 7"), "/tasks/1/id: expected 1");
  expect_refused(replaced("\"commits\": [\n  1\n ]", "\"commits\": [0]"), "/commits/0: expected a communication task");
  expect_refused(replaced("\"iterations\": 2", "\"iterations\": 2000000000"), "/iterations: expected an integer in [1, 100000]");
  expect_refused(replaced("\"iterations\": 2", "\"iterations\": 3"), "/iterations: expected as many iterations as the tasks have");
  expect_refused(replaced("\"start_s\": 0", "\"start_s\": 1e999"), "expected valid JSON, got number overflow");
  expect_refused("[1, 2]", "top level: expected an object with the key format, got an array");
  EXPECT_THROW(read_timeline_json(::testing::TempDir() + "missing.json"), InputError);
}

}  // namespace
}  // namespace scalecast
