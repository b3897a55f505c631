// The shared parts of the harnesses. Only InputError may stop a run of a bad input (exit code 2
// in the command); anything else a harness lets through, and libFuzzer reports it as a crash.
#include "fuzz/harness.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "sim/backends/analytical/analytical_backend.h"
#include "sim/io/input_error.h"
#include "sim/io/json_reader.h"
#include "sim/io/json_text.h"
#include "sim/prediction/prediction.h"
#include "sim/report/chrome_trace.h"
#include "sim/report/prediction_report.h"
#include "sim/formats/schedule_json.h"
#include "sim/formats/timeline_json.h"

namespace scalecast::fuzz {

std::vector<std::string> parts(const std::uint8_t* data, std::size_t size) {
  std::vector<std::string> out(1);
  for (std::size_t i = 0; i < size; ++i) {
    if (data[i] == 0)
      out.emplace_back();
    else
      out.back() += static_cast<char>(data[i]);
  }
  return out;
}

std::string source_dir() { return SCALECAST_SOURCE_DIR; }

std::string scratch_file(const std::string& name, const std::string& text) {
  const auto dir = std::filesystem::temp_directory_path() / ("scalecast-fuzz-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto path = dir / name;
  std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
  return path.string();
}

WorkLimits small_limits() {
  WorkLimits limits;
  limits.max_events = 2e4;
  limits.max_memory_bytes = 16e6;
  return limits;
}

void expect_readable(const std::string& what, const std::function<void()>& read) {
  try {
    read();
  } catch (const InputError& e) {
    std::fprintf(stderr, "scalecast wrote %s that it refuses to read: %s\n", what.c_str(), e.what());
    std::abort();
  }
}

void predict_and_write(const Scenario& s, const Workload& w) {
  constexpr std::size_t kRuns = 3;
  constexpr std::size_t kWrittenTasks = 500;  // larger runs are predicted, not written (JSON is slow)
  const AnalyticalBackend backend;
  std::vector<PredictionRow> rows;
  for (const auto& method : s.methods)
    for (int gpus : s.gpus) {
      if (rows.size() == kRuns) break;
      const PredictionRun r = predict(s, w, method, gpus, backend, small_limits());
      rows.push_back(r.row);
      if (r.schedule.tasks.size() > kWrittenTasks) continue;
      std::ostringstream trace, timeline;
      write_chrome_trace(trace, r.schedule, r.timeline);
      write_timeline_json(timeline, r.schedule, r.timeline);
      expect_readable("a timeline", [&] { timeline_from_json(parse_json(timeline.str(), "timeline"), "timeline"); });
      const std::string schedule = json_text(schedule_to_json(r.schedule));
      expect_readable("a schedule", [&] { schedule_from_json(parse_json(schedule, "schedule"), "schedule"); });
    }
  for (const char* format : {"table", "csv", "json"}) {
    std::ostringstream out;
    write_rows(out, rows, format);
  }
}

}  // namespace scalecast::fuzz
