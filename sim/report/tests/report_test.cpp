// Tests of what users see: CSV with the DESIGN.md columns, byte-identical output for the same
// inputs, a units row in tables, and Chrome traces with the structure Perfetto expects.
#include <gtest/gtest.h>

#include <set>
#include <sstream>

#include "tests/fixtures.h"
#include "sim/backends/analytical/analytical_backend.h"
#include "sim/report/chrome_trace.h"
#include "sim/report/csv_field.h"
#include "sim/report/prediction_report.h"
#include "sim/scenario/scenario.h"

namespace scalecast {
namespace {

Scenario scenario() {
  return load_scenario(std::string(SCALECAST_SOURCE_DIR) + "/scenarios/ddl-resnet50-10gbe.yaml");
}

std::vector<PredictionRow> rows(const Scenario& s) {
  const BuiltWorkload w = build_workload(s);
  std::vector<PredictionRow> out;
  for (const auto& m : s.methods)
    for (int g : s.gpus) out.push_back(predict(s, w.workload, m, g, AnalyticalBackend()).row);
  return out;
}

TEST(Report, CsvFieldsAreQuotedWhereTheyWouldSplitARow) {
  EXPECT_EQ(csv_field("plain"), "plain");
  EXPECT_EQ(csv_field("a, \"b\""), "\"a, \"\"b\"\"\"");
  EXPECT_EQ(csv_field("two\nlines"), "\"two\nlines\"");
}

TEST(Report, CsvHasTheDesignColumnsAndOneRowPerRun) {
  const Scenario s = scenario();
  std::ostringstream out;
  write_csv(out, rows(s));
  std::istringstream in(out.str());
  std::string header;
  std::getline(in, header);
  EXPECT_EQ(header.rfind("scenario,model,method,gpus,nodes,batch_per_gpu,iteration_s,throughput,"
                         "speedup,efficiency,compute_s,exposed_comm_s,backend",
                         0),
            0u);
  size_t lines = 0;
  for (std::string line; std::getline(in, line);) ++lines;
  EXPECT_EQ(lines, s.methods.size() * s.gpus.size());
}

TEST(Report, SameInputsGiveByteIdenticalOutput) {
  const Scenario s = scenario();
  for (const std::string format : {"table", "csv", "json"}) {
    std::ostringstream a, b;
    write_rows(a, rows(s), format);
    write_rows(b, rows(s), format);
    EXPECT_EQ(a.str(), b.str()) << format;
  }
}

TEST(Report, TableHasAUnitsRow) {
  std::ostringstream out;
  write_table(out, rows(scenario()));
  std::istringstream in(out.str());
  std::string names, unit_row;
  std::getline(in, names);
  std::getline(in, unit_row);
  EXPECT_NE(names.find("throughput"), std::string::npos);
  EXPECT_NE(unit_row.find("images/s"), std::string::npos);
  EXPECT_NE(unit_row.find(" s "), std::string::npos);
}

TEST(ChromeTrace, HasNamedTracksAndCompleteEventsInMicroseconds) {
  const Scenario s = scenario();
  const BuiltWorkload w = build_workload(s);
  // A trace shows the scenario's iterations (0), not only the two a row needs.
  const PredictionRun r = predict(s, w.workload, "wfbp-allreduce", 8, AnalyticalBackend(), {}, 0);
  const auto trace = chrome_trace(r.schedule, r.timeline, {4});
  ASSERT_TRUE(trace.contains("traceEvents"));
  std::set<int> gpu_pids;
  size_t slices = 0, comm = 0;
  for (const auto& e : trace["traceEvents"]) {
    ASSERT_TRUE(e.contains("ph") && e.contains("pid") && e.contains("tid") && e.contains("name"));
    if (e["ph"] == "X") {
      ++slices;
      EXPECT_GE(e["dur"].get<double>(), 0.0);
      EXPECT_GE(e["ts"].get<double>(), 0.0);
      if (e["cat"] == "comm") ++comm;
      else gpu_pids.insert(e["pid"].get<int>());
    } else {
      EXPECT_EQ(e["ph"], "M");
      EXPECT_TRUE(e["args"].contains("name"));
    }
  }
  EXPECT_EQ(gpu_pids, (std::set<int>{0, 1, 2, 3}));  // one compute track per drawn GPU
  EXPECT_EQ(comm, static_cast<size_t>(161 * s.iterations));  // one all-reduce per tensor
  EXPECT_GT(slices, comm);
  // The last compute slice ends where the timeline says the run ends.
  double end = 0;
  for (const auto& ev : r.timeline.events) end = std::max(end, ev.end_s);
  double trace_end = 0;
  for (const auto& e : trace["traceEvents"])
    if (e["ph"] == "X") trace_end = std::max(trace_end, e["ts"].get<double>() + e["dur"].get<double>());
  EXPECT_NEAR(trace_end, end * 1e6, 1e-3);
}

}  // namespace
}  // namespace scalecast
