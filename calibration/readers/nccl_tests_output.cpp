// The nccl-tests text format (nccl-tests src/util.cu; doc/PERFORMANCE.md), every version since
// 2019: launcher prefixes removed, the op from the start line or the file name, ranks and hosts
// from the device lines, the out-of-place time of each row by the header's columns.
#include "calibration/readers/nccl_tests_output.h"

#include <algorithm>
#include <fmt/format.h>
#include <optional>
#include <charconv>
#include <cmath>
#include <regex>
#include <set>
#include <sstream>

#include "sim/io/input_error.h"
#include "sim/io/input_text.h"
#include "sim/io/ranges.h"
#include "sim/scenario/run_setup.h"
#include "sim/scenario/scenario.h"

namespace scalecast::calibration {
namespace {

// The longest line read: std::regex recurses per character, and no line of nccl-tests is this long.
constexpr std::size_t kMaxLine = 4096;

// A row's time: more than 1 ns, and no longer than the longest pass a run may take (1 h).
Bound row_time_us() {
  return {1e-3, true, ranges::compute_time().max * 1e6, false, "of microseconds in [0.001, 3.6e9] (1 ns to 1 h)"};
}

bool whole(double x) { return x == std::floor(x); }

const std::vector<std::string> kTypes = {"float", "half",   "bfloat16", "double", "int8",   "uint8",
                                         "int32", "uint32", "int64",    "uint64", "f8e4m3", "f8e5m2"};

// mpirun --tag-output puts "[1,0]<stdout>:" before (and inside) lines; srun -l puts "0: ".
std::string without_launcher_prefixes(const std::string& line) {
  static const std::regex tag(R"(\[\d+,\d+\]<std(out|err)>:)");
  static const std::regex slurm(R"(^\s*\d+:\s)");
  return std::regex_replace(std::regex_replace(line, tag, " "), slurm, "");
}

std::vector<std::string> tokens(const std::string& line) {
  std::istringstream in(line);
  std::vector<std::string> out;
  for (std::string t; in >> t;) out.push_back(t);
  return out;
}

bool number(const std::string& text, double& out) {
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return ec == std::errc() && ptr == text.data() + text.size() && std::isfinite(out);
}

// The test's name in a start line or a file name: all_reduce_perf, allreduce, all-gather...
std::optional<collectives::CollectiveOp> op_named_in(std::string text) {
  text.erase(std::remove_if(text.begin(), text.end(), [](char c) { return c == '_' || c == '-'; }), text.end());
  // "reduce" last: the others hold it.
  for (const char* name : {"all_reduce", "all_gather", "reduce_scatter", "sendrecv", "broadcast", "alltoall", "reduce"}) {
    std::string plain = name;
    plain.erase(std::remove(plain.begin(), plain.end(), '_'), plain.end());
    if (text.find(plain) != std::string::npos) return collectives::parse_collective_op(name);
  }
  return std::nullopt;
}

}  // namespace

bool looks_like_nccl_tests(const std::string& text) {
  // Its table header: "size  count  type ... algbw  busbw" (after '#' and launcher prefixes).
  static const std::regex header(R"((^|[#:\s])size\s+count\s+type\s.*algbw\s+busbw)");
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);)
    if (line.size() <= kMaxLine && std::regex_search(line, header)) return true;
  return false;
}

std::vector<NcclTestsOutput> read_nccl_tests(std::istream& in, const std::string& source) {
  struct Run {
    NcclTestsOutput out;
    std::optional<collectives::CollectiveOp> op;
    std::set<std::string> hosts;
    std::set<int> ranks;
    int time_column = -1;  // from the header, where there is one
    std::size_t columns = 0;  // the header's columns: a row with fewer was cut short
  };
  std::vector<Run> runs(1);
  static const std::regex device(R"(Rank\s+(\d+)\s+(?:Group\s+\d+\s+)?Pid\s+\d+\s+on\s+(\S+)\s+device)");
  std::string raw;
  for (int number_of_line = 1; std::getline(in, raw); ++number_of_line) {
    const auto fail = [&](const std::string& what) {
      throw InputError(InputKind::file, source + ":" + std::to_string(number_of_line) + ": " + what);
    };
    if (raw.find('\0') != std::string::npos) fail("expected text, got a NUL byte");
    if (raw.size() > kMaxLine)
      fail("expected a line of nccl-tests output (at most " + std::to_string(kMaxLine) + " characters), got " +
           std::to_string(raw.size()));
    const std::string line = without_launcher_prefixes(raw);
    const auto start = line.find("Collective test starting:");
    // A command line that runs a test (".../all_gather_perf -b 8 ...") names the run's collective too.
    const auto first = line.find_first_not_of(" \t");
    const auto program = line.find("_perf") != std::string::npos && first != std::string::npos && line[first] != '#'
                             ? op_named_in(line.substr(0, line.find("_perf") + 5))
                             : std::nullopt;
    if ((start != std::string::npos || program || line.find("nThread") != std::string::npos) &&
        !runs.back().out.rows.empty())
      runs.emplace_back();
    Run& run = runs.back();
    if (start != std::string::npos) run.op = op_named_in(line.substr(start));
    if (program) run.op = program;
    std::smatch m;
    static const std::regex gpus(R"(nThread\s+\d+\s+nGpus\s+(\d+))");
    if (std::regex_search(line, m, gpus)) {
      const std::string digits = m[1];
      if (digits.size() > 4 || std::stoi(digits) < 1 || std::stoi(digits) > ranges::kMaxGpusPerNode)
        fail("nGpus: expected the GPUs one thread drives, in [1, " + std::to_string(ranges::kMaxGpusPerNode) +
             "], got " + digits);
      run.out.gpus_per_thread = std::stoi(digits);
    }
    if (std::regex_search(line, m, device)) {
      const std::string rank = m[1];
      if (rank.size() > 7 || std::stoi(rank) >= ranges::kMaxGpus)
        fail("expected a rank below " + std::to_string(ranges::kMaxGpus) + ", got " + rank);
      if (!run.ranks.insert(std::stoi(rank)).second)
        fail("expected each rank's device line once in a run, got rank " + rank + " again");
      run.hosts.insert(m[2]);
      continue;
    }
    std::vector<std::string> t = tokens(line);
    if (!t.empty() && t[0] == "#") t.erase(t.begin());
    if (t.size() >= 4 && t[0] == "size" && t[1] == "count") {
      const auto time = std::find(t.begin(), t.end(), "time");
      run.time_column = time == t.end() ? -1 : static_cast<int>(time - t.begin());
      run.columns = t.size();
      continue;
    }
    // A result row: size, count, a type, and numbers. A line that begins with two numbers and is
    // no such row (cut short, a size below zero, a type nccl-tests has not) is refused, never dropped.
    double bytes = 0, count = 0;
    const bool commented = line.find_first_not_of(" \t") != std::string::npos && line[line.find_first_not_of(" \t")] == '#';
    if (t.size() < 2 || !number(t[0], bytes) || !number(t[1], count) || commented) continue;
    if (t.size() >= std::max<std::size_t>(8, run.columns) && std::find(kTypes.begin(), kTypes.end(), t[2]) == kTypes.end())
      fail("type: expected a type nccl-tests runs (float, half, bfloat16, double, int8, ...), got " + quote_input(t[2]));
    if (t.size() < std::max<std::size_t>(8, run.columns) || std::find(kTypes.begin(), kTypes.end(), t[2]) == kTypes.end())
      fail("expected a row of nccl-tests (size, count, type, ..., time, algbw, busbw), got " + quote_input(raw) +
           " (cut short?)");
    if (!(bytes >= 0 && bytes <= ranges::kMaxBytes))
      fail("expected a size from 0 to 1e15 bytes, got " + t[0]);  // ranges::kMaxBytes
    if (!whole(bytes)) fail("expected a whole number of bytes, got " + t[0]);
    if (!(count >= 0) || !whole(count) || count > bytes)
      fail("expected a count of elements, a whole number from 0 to the size (" + t[0] + "), got " + t[1]);
    // nccl-tests repeats 0-byte rows where a small size rounds down to no element per rank.
    if (!run.out.rows.empty() && !(bytes > run.out.rows.back().bytes || (bytes == 0 && run.out.rows.back().bytes == 0)))
      fail("expected sizes in increasing order, got " + t[0] + " after " +
           fmt::format("{:.0f}", run.out.rows.back().bytes) + " (line " + std::to_string(run.out.rows.back().line) +
           ")");
    // Without a header: 13 fields (redop and root, since 2022) or 12 (one of them).
    const int column = run.time_column >= 0 ? run.time_column : (t.size() >= 13 ? 5 : 4);
    NcclTestsRow row;
    row.line = number_of_line;
    row.bytes = bytes;
    if (column + 2 >= static_cast<int>(t.size()) || !number(t[column], row.time_us) ||
        !number(t[column + 1], row.algbw) || !number(t[column + 2], row.busbw))
      fail("expected a row of nccl-tests (size, count, type, ..., time, algbw, busbw), got " + quote_input(raw));
    if (!row_time_us().contains(row.time_us)) fail("time: expected a number " + row_time_us().describe() + ", got " + t[column]);
    if (!(row.algbw >= 0 && row.busbw >= 0))
      fail("algbw, busbw: expected rates of 0 GB/s or more, got " + t[column + 1] + ", " + t[column + 2]);
    run.out.rows.push_back(row);
  }
  std::vector<NcclTestsOutput> out;
  for (Run& run : runs) {
    if (run.out.rows.empty()) continue;
    if (!run.op) run.op = op_named_in(source);
    if (!run.op)
      throw InputError(InputKind::file, source + ":" + std::to_string(run.out.rows.front().line) +
                        ": no 'Collective test starting' line and no test name (all_reduce_perf, all_gather_perf, "
                        "...) in the file name: which collective is it?");
    run.out.source = source;
    run.out.op = *run.op;
    run.out.ranks = static_cast<int>(run.ranks.size());
    run.out.nodes = static_cast<int>(run.hosts.size());
    out.push_back(std::move(run.out));
  }
  if (out.empty()) throw InputError(InputKind::file, source + ": expected nccl-tests result rows, got none");
  return out;
}

std::vector<CollectiveSample> nccl_tests_samples(const NcclTestsOutput& o, const Cluster* cluster, int gpus) {
  int nodes = o.nodes, gpus_per_node = o.nodes > 0 ? o.ranks / std::max(1, o.nodes) : 0;
  if (o.ranks > 0 && gpus > 0 && o.ranks != gpus)
    throw InputError(InputKind::file, o.source + ": its device lines name " + std::to_string(o.ranks) + " ranks, expected " +
                      std::to_string(gpus) + " (--gpus)");
  if (o.ranks == 0 && gpus > 1 && cluster) {
    const Cluster sized = sized_for(*cluster, gpus);
    nodes = sized.nodes;
    gpus_per_node = sized.gpus_per_node;
  } else if (o.ranks < 2 || o.nodes < 1 || o.ranks % o.nodes != 0) {
    throw InputError(InputKind::file, o.source + ": expected the '#  Rank N ... on HOST device' lines that say how many GPUs on how "
                                 "many hosts ran it (or --gpus), got " +
                      std::to_string(o.ranks) + " ranks on " + std::to_string(o.nodes) + " hosts");
  }
  std::vector<CollectiveSample> out;
  for (const NcclTestsRow& r : o.rows) {
    if (!(r.bytes > 0)) continue;  // nothing moves: no constant shows in a 0-byte call
    CollectiveSample s;
    s.where = o.source + ":" + std::to_string(r.line);
    s.op = o.op;
    s.file = o.source;
    s.nodes = nodes;
    s.gpus_per_node = gpus_per_node;
    s.gpus_per_thread = o.gpus_per_thread;
    s.bytes = r.bytes;
    s.time_s = r.time_us * 1e-6;
    out.push_back(s);
  }
  if (out.empty()) throw InputError(InputKind::file, o.source + ": expected rows of more than 0 bytes to fit, got only 0-byte rows");
  return out;
}

}  // namespace scalecast::calibration
