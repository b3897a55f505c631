// Parses the line-oriented activity dump strictly: every error names the file, line, byte
// offset and what was expected, and a dump without its `end` trailer is rejected as truncated.
#include "profiler/dump_reader.h"

#include <charconv>
#include <fstream>
#include <string_view>
#include <vector>

#include "profiler/dump_format.h"
#include "sim/io/input_error.h"
#include "sim/io/input_text.h"

namespace scalecast::profiler {
namespace {

class Parser {
 public:
  Parser(std::istream& in, std::string label) : in_(in), label_(std::move(label)) {}

  ActivityLog run() {
    std::string line;
    if (!next_line(line)) fail_at(0, "empty file: expected the header '" + header() + "'");
    check_header(line);
    while (next_line(line)) {
      if (ended_) {
        if (!line.empty()) fail("data after the 'end' trailer");
        continue;
      }
      parse_record(line);
    }
    if (!ended_) {
      fail_at(offset_, "truncated: no 'end' trailer after " + std::to_string(records_) +
                           " records (the file ends at byte " + std::to_string(offset_) + ")");
    }
    return std::move(log_);
  }

 private:
  static std::string header() {
    return std::string(dump::kMagic) + "\\t" + std::to_string(dump::kVersion);
  }

  // Reads one line; a last line without its newline means the writer was cut off.
  bool next_line(std::string& line) {
    line_start_ = offset_;
    if (!std::getline(in_, line)) return false;
    ++line_number_;
    if (in_.eof()) fail("truncated record: the line has no newline (the file ends mid-record)");
    offset_ += line.size() + 1;
    return true;
  }

  [[noreturn]] void fail_at(uint64_t byte, const std::string& what) const {
    throw InputError(InputKind::file, label_ + ": byte " + std::to_string(byte) + ": " + what);
  }

  [[noreturn]] void fail(const std::string& what) const {
    throw InputError(InputKind::file, label_ + ": line " + std::to_string(line_number_) + " (byte " +
                    std::to_string(line_start_) + "): " + what);
  }

  void check_header(const std::string& line) {
    const std::vector<std::string_view> fields = split(line);
    if (fields.size() != 2 || fields[0] != dump::kMagic) {
      fail("not a scalecast activity dump: expected the header '" + header() + "', got " + quote_input(line));
    }
    const uint64_t version = number(fields[1], "version");
    if (version != static_cast<uint64_t>(dump::kVersion)) {
      fail("unsupported dump version " + std::to_string(version) + " (this scalecast reads " +
           std::to_string(dump::kVersion) + ")");
    }
  }

  void parse_record(const std::string& line) {
    const std::vector<std::string_view> f = split(line);
    const std::string_view kind = f[0];
    if (kind == "end") {
      expect_fields(f, 2);
      const uint64_t count = number(f[1], "record count");
      if (count != records_) {
        fail("the 'end' trailer says " + std::to_string(count) + " records but " +
             std::to_string(records_) + " were read");
      }
      ended_ = true;
      return;
    }
    ++records_;
    if (kind == "device") {
      expect_fields(f, 3);
      log_.devices.push_back(Device{id(f[1], "device id"), text(f[2])});
    } else if (kind == "range_start") {
      expect_fields(f, 6);
      log_.range_starts.push_back(RangeStart{id(f[1], "range id"), id(f[2], "thread"),
                                             number(f[3], "time"), text(f[4]), text(f[5])});
    } else if (kind == "range_end") {
      expect_fields(f, 4);
      log_.range_ends.push_back(
          RangeEnd{id(f[1], "range id"), id(f[2], "thread"), number(f[3], "time")});
    } else if (kind == "api") {
      expect_fields(f, 5);
      ApiCall call{id(f[1], "correlation id"), id(f[2], "thread"), number(f[3], "start"),
                   number(f[4], "end")};
      check_interval(call.start, call.end);
      log_.api_calls.push_back(call);
    } else if (kind == "kernel" || kind == "memcpy" || kind == "memset") {
      parse_gpu(f);
    } else if (kind == "nvtx_calls") {
      expect_fields(f, 5);
      log_.nvtx_calls = NvtxCallCounts{number(f[1], "push count"), number(f[2], "pop count"),
                                       number(f[3], "start count"), number(f[4], "end count")};
      log_.has_nvtx_calls = true;
    } else if (kind == "dropped") {
      expect_fields(f, 2);
      log_.dropped_records += number(f[1], "dropped record count");
    } else {
      fail("unknown record kind " + quote_input(kind) +
           " (expected device, range_start, range_end, api, kernel, memcpy, memset, "
           "nvtx_calls, dropped or end)");
    }
  }

  void parse_gpu(const std::vector<std::string_view>& f) {
    GpuActivity a;
    a.kind = f[0] == "kernel"   ? GpuKind::kernel
             : f[0] == "memcpy" ? GpuKind::memcpy
                                : GpuKind::memset;
    expect_fields(f, a.kind == GpuKind::memcpy ? 8 : 7);
    a.correlation = id(f[1], "correlation id");
    a.device = id(f[2], "device");
    a.stream = id(f[3], "stream");
    a.start = number(f[4], "start");
    a.end = number(f[5], "end");
    check_interval(a.start, a.end);
    if (a.kind == GpuKind::kernel) {
      a.name = text(f[6]);
    } else {
      a.bytes = number(f[6], "bytes");
      if (a.kind == GpuKind::memcpy) a.name = text(f[7]);
    }
    log_.gpu.push_back(std::move(a));
  }

  static std::vector<std::string_view> split(std::string_view line) {
    std::vector<std::string_view> fields;
    size_t begin = 0;
    while (true) {
      const size_t tab = line.find('\t', begin);
      fields.push_back(
          line.substr(begin, tab == std::string_view::npos ? std::string_view::npos : tab - begin));
      if (tab == std::string_view::npos) return fields;
      begin = tab + 1;
    }
  }

  void expect_fields(const std::vector<std::string_view>& f, size_t count) const {
    if (f.size() != count) {
      fail("a '" + std::string(f[0]) + "' record has " + std::to_string(count) +
           " tab-separated fields, got " + std::to_string(f.size()));
    }
  }

  uint64_t number(std::string_view field, const char* what) const {
    uint64_t value = 0;
    const auto [end, error] = std::from_chars(field.data(), field.data() + field.size(), value);
    if (field.empty() || error != std::errc() || end != field.data() + field.size()) {
      fail(std::string("expected an unsigned integer for ") + what + ", got " + quote_input(field));
    }
    return value;
  }

  uint32_t id(std::string_view field, const char* what) const {
    const uint64_t value = number(field, what);
    if (value > UINT32_MAX) fail(std::string(what) + " " + quote_input(field) + " exceeds 32 bits");
    return static_cast<uint32_t>(value);
  }

  std::string text(std::string_view field) const {
    std::string out;
    out.reserve(field.size());
    for (size_t i = 0; i < field.size(); ++i) {
      if (field[i] != '\\') {
        out.push_back(field[i]);
        continue;
      }
      const char next = i + 1 < field.size() ? field[i + 1] : '\0';
      switch (next) {
        case '\\':
          out.push_back('\\');
          break;
        case 't':
          out.push_back('\t');
          break;
        case 'n':
          out.push_back('\n');
          break;
        case 'r':
          out.push_back('\r');
          break;
        default:
          fail("bad escape in text field " + quote_input(field) + " (expected \\\\ \\t \\n \\r)");
      }
      ++i;
    }
    if (!is_utf8(out)) fail("expected text in UTF-8, got " + quote_input(field));
    return out;
  }

  void check_interval(uint64_t start, uint64_t end) const {
    if (end < start) {
      fail("end " + std::to_string(end) + " is before start " + std::to_string(start));
    }
  }

  std::istream& in_;
  std::string label_;
  ActivityLog log_;
  uint64_t offset_ = 0;
  uint64_t line_start_ = 0;
  uint64_t line_number_ = 0;
  uint64_t records_ = 0;
  bool ended_ = false;
};

}  // namespace

ActivityLog parse_dump(std::istream& in, const std::string& label) {
  return Parser(in, label).run();
}

ActivityLog read_dump(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(InputKind::file, path + ": cannot open the activity dump");
  return parse_dump(in, path);
}

}  // namespace scalecast::profiler
