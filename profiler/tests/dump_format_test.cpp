// The activity dump format: writer/reader round trip (escaped names included), truncation at
// any byte, corrupt headers and records, and the hand-written dump under tests/data.
#include <gtest/gtest.h>

#include <sstream>

#include "profiler/dump_reader.h"
#include "profiler/dump_writer.h"
#include "sim/io/input_error.h"

namespace scalecast::profiler {
namespace {

const std::string kData = SCALECAST_PROFILER_TEST_DATA;

ActivityLog sample_log() {
  ActivityLog log;
  log.devices.push_back(Device{0, "NVIDIA H100 80GB HBM3"});
  log.range_starts.push_back(RangeStart{1, 77, 1000, "", "iteration"});
  log.range_starts.push_back(
      RangeStart{2, 77, 1100, "my\tdomain", "aten::cat, seq = 3\nline two \\ end"});
  log.range_ends.push_back(RangeEnd{2, 77, 1500});
  log.range_ends.push_back(RangeEnd{1, 77, 9000});
  log.api_calls.push_back(ApiCall{55, 77, 1200, 1210});
  log.gpu.push_back(GpuActivity{GpuKind::kernel, 55, 0, 7, 2000, 2500, 0, "_Z3fooPf"});
  log.gpu.push_back(GpuActivity{GpuKind::memcpy, 56, 0, 7, 2500, 2600, 1 << 20, "HtoD"});
  log.gpu.push_back(GpuActivity{GpuKind::memset, 57, 1, 8, 2600, 2610, 4096, ""});
  log.has_nvtx_calls = true;
  log.nvtx_calls = NvtxCallCounts{2, 2, 0, 0};
  log.dropped_records = 3;
  return log;
}

std::string dump_text(const ActivityLog& log) {
  std::ostringstream out;
  write_dump(out, log);
  return out.str();
}

ActivityLog parse(const std::string& text) {
  std::istringstream in(text);
  return parse_dump(in, "test.activity");
}

std::string error_of(const std::string& text) {
  try {
    parse(text);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(DumpFormat, RoundTripKeepsEveryField) {
  const ActivityLog in = sample_log();
  const ActivityLog out = parse(dump_text(in));
  ASSERT_EQ(out.devices.size(), 1u);
  EXPECT_EQ(out.devices[0].name, "NVIDIA H100 80GB HBM3");
  ASSERT_EQ(out.range_starts.size(), 2u);
  EXPECT_EQ(out.range_starts[1].domain, "my\tdomain");
  EXPECT_EQ(out.range_starts[1].name, "aten::cat, seq = 3\nline two \\ end");
  EXPECT_EQ(out.range_starts[1].time, 1100u);
  ASSERT_EQ(out.range_ends.size(), 2u);
  EXPECT_EQ(out.range_ends[0].id, 2u);
  ASSERT_EQ(out.api_calls.size(), 1u);
  EXPECT_EQ(out.api_calls[0].end, 1210u);
  ASSERT_EQ(out.gpu.size(), 3u);
  EXPECT_EQ(out.gpu[0].name, "_Z3fooPf");
  EXPECT_EQ(out.gpu[1].kind, GpuKind::memcpy);
  EXPECT_EQ(out.gpu[1].bytes, 1u << 20);
  EXPECT_EQ(out.gpu[1].name, "HtoD");
  EXPECT_EQ(out.gpu[2].kind, GpuKind::memset);
  EXPECT_EQ(out.gpu[2].device, 1u);
  EXPECT_EQ(out.gpu[2].stream, 8u);
  EXPECT_TRUE(out.has_nvtx_calls);
  EXPECT_EQ(out.nvtx_calls.push, 2u);
  EXPECT_EQ(out.dropped_records, 3u);
  EXPECT_EQ(dump_text(out), dump_text(in));
}

TEST(DumpFormat, EveryTruncationIsDetected) {
  const std::string text = dump_text(sample_log());
  for (size_t length = 0; length < text.size(); ++length) {
    EXPECT_THROW(parse(text.substr(0, length)), InputError) << "cut at byte " << length;
  }
}

TEST(DumpFormat, TruncationMessagesSayWhere) {
  const std::string text = dump_text(sample_log());
  const size_t cut = text.find("kernel\t");
  EXPECT_EQ(error_of(text.substr(0, cut)),
            "test.activity: byte " + std::to_string(cut) +
                ": truncated: no 'end' trailer after 6 records (the file ends at byte " +
                std::to_string(cut) + ")");
  EXPECT_EQ(error_of(text.substr(0, cut + 3)),
            "test.activity: line 8 (byte " + std::to_string(cut) +
                "): truncated record: the line has no newline (the file ends mid-record)");
}

TEST(DumpFormat, CorruptHeaderAndRecordsAreRejected) {
  EXPECT_EQ(error_of(""),
            "test.activity: byte 0: empty file: expected the header 'scalecast-activity\\t1'");
  EXPECT_NE(error_of("nvprof 1\nend\t0\n").find("line 1 (byte 0): not a scalecast activity dump"),
            std::string::npos);
  EXPECT_NE(error_of("scalecast-activity\t2\nend\t0\n").find("unsupported dump version 2"),
            std::string::npos);
  const std::string header = "scalecast-activity\t1\n";
  EXPECT_EQ(error_of(header + "kernel\t1\t0\t7\tabc\t20\tk\nend\t1\n"),
            "test.activity: line 2 (byte 21): expected an unsigned integer for start, got 'abc'");
  EXPECT_NE(
      error_of(header + "kernel\t1\t0\t7\t30\t20\tk\nend\t1\n").find("end 20 is before start 30"),
      std::string::npos);
  EXPECT_NE(error_of(header + "api\t1\t2\t3\nend\t1\n")
                .find("a 'api' record has 5 tab-separated fields, got 4"),
            std::string::npos);
  EXPECT_NE(error_of(header + "gpu\t1\nend\t1\n").find("unknown record kind 'gpu'"),
            std::string::npos);
  EXPECT_NE(error_of(header + "device\t0\tbad\\q\nend\t1\n").find("bad escape"), std::string::npos);
  EXPECT_NE(error_of(header + "dropped\t0\nend\t2\n").find("says 2 records but 1 were read"),
            std::string::npos);
  EXPECT_NE(error_of(header + "end\t0\ndropped\t0\n")
                .find("line 3 (byte 27): data after the 'end' trailer"),
            std::string::npos);
  EXPECT_NE(
      error_of(header + "range_start\t99999999999\t1\t2\t\tx\nend\t1\n").find("exceeds 32 bits"),
      std::string::npos);
}

TEST(DumpFormat, ReadsTheRecordedSample) {
  const ActivityLog log = read_dump(kData + "/check_workload.activity");
  EXPECT_EQ(log.devices.size(), 1u);
  EXPECT_EQ(log.range_starts.size(), 48u);
  EXPECT_EQ(log.range_ends.size(), 48u);
  EXPECT_EQ(log.gpu.size(), 39u);
  EXPECT_EQ(log.api_calls.size(), 39u);
}

TEST(DumpFormat, DamagedSampleFilesNameTheProblem) {
  auto message = [](const std::string& file) {
    try {
      read_dump(kData + "/" + file);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_NE(message("truncated.activity").find("truncated record"), std::string::npos);
  EXPECT_NE(message("truncated.activity").find(kData + "/truncated.activity: line "),
            std::string::npos);
  EXPECT_NE(message("corrupt_header.activity").find("not a scalecast activity dump"),
            std::string::npos);
  EXPECT_NE(message("unsupported_version.activity").find("unsupported dump version 7"),
            std::string::npos);
  EXPECT_NE(message("missing.activity").find("cannot open"), std::string::npos);
}

}  // namespace
}  // namespace scalecast::profiler
