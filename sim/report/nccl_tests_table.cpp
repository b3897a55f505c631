// The nccl-tests table (util.cu:454-511, 620-640, 739-780 at v2.19.6) and its size rounding
// (common.cu:900-938 and each test's GetCollByteCount).
#include "sim/report/nccl_tests_table.h"

#include <cmath>
#include <fmt/format.h>
#include <stdexcept>

#include "sim/io/input_error.h"

namespace scalecast {

using collectives::CollectiveOp;

int nccl_tests_type_bytes(const std::string& type) {
  if (type == "int8" || type == "uint8" || type == "char") return 1;
  if (type == "half" || type == "bfloat16" || type == "float16") return 2;
  if (type == "float" || type == "int32" || type == "uint32" || type == "int") return 4;
  if (type == "double" || type == "int64" || type == "uint64") return 8;
  throw InputError("unknown type '" + type +
                   "' (known: int8, uint8, half, bfloat16, float, int32, uint32, double, int64, uint64)");
}

std::vector<NcclTestsSize> nccl_tests_sizes(CollectiveOp op, double min, double max, double factor, double increment,
                                            int ts, int ranks) {
  if (!(min > 0) || !(max >= min) || !(factor >= 1) || (factor == 1 && !(increment > 0)))
    throw InputError("sizes: expected 0 < min <= max and a factor > 1 or an increment > 0");
  std::vector<NcclTestsSize> out;
  const double align = 16.0 / ts;  // per-rank counts are multiples of 16 bytes
  for (double size = min; size <= max && out.size() < 4096; size = factor > 1 ? size * factor : size + increment) {
    const double count = std::floor(size / ts);
    NcclTestsSize s;
    switch (op) {
      case CollectiveOp::all_gather:
      case CollectiveOp::reduce_scatter:
      case CollectiveOp::alltoall: {
        const double base = std::floor(std::floor(count / ranks) / align) * align;
        s = {base * ranks * ts, base};
        break;
      }
      default: s = {count * ts, count};
    }
    out.push_back(s);
  }
  return out;
}

std::string nccl_tests_number(double v, int width) {
  for (const char* f : {"{:.2f}", "{:.1f}", "{:.0f}"}) {
    std::string s = fmt::format(fmt::runtime(f), v);
    if (static_cast<int>(s.size()) <= width) return s;
  }
  std::string s = fmt::format("{:.1e}", v);
  return static_cast<int>(s.size()) <= width ? s : fmt::format("{:.0e}", v);
}

void write_nccl_tests_table(std::ostream& out, CollectiveOp op, const std::string& type, int ranks,
                            const std::vector<NcclTestsLine>& rows, const std::vector<std::string>& comments) {
  const bool reduces = op == CollectiveOp::all_reduce || op == CollectiveOp::reduce_scatter || op == CollectiveOp::reduce;
  const bool rooted = op == CollectiveOp::broadcast || op == CollectiveOp::reduce;
  const double factor = collectives::bus_factor(op, ranks);
  for (const auto& c : comments) out << "# " << c << "\n";
  out << "#\n"
      << "#                                                              out-of-place                       in-place          \n"
      << "#       size         count      type   redop    root     time   algbw   busbw  #wrong     time   algbw   busbw  #wrong \n"
      << "#        (B)    (elements)                               (us)  (GB/s)  (GB/s)             (us)  (GB/s)  (GB/s)         \n";
  double busbw_sum = 0;
  for (const NcclTestsLine& r : rows) {
    const double algbw = r.time_us > 0 ? r.size.bytes / 1e9 / (r.time_us * 1e-6) : 0;
    const double busbw = algbw * factor;
    busbw_sum += 2 * busbw;  // out-of-place and in-place
    const std::string half = fmt::format("  {:>7}  {:>6}  {:>6}  {:>6}", nccl_tests_number(r.time_us, 7),
                                         nccl_tests_number(algbw, 6), nccl_tests_number(busbw, 6), "N/A");
    out << fmt::format("{:>12}  {:>12}  {:>8}  {:>6}  {:>6}", static_cast<long long>(r.size.bytes),
                       static_cast<long long>(r.size.count), type, reduces ? "sum" : "none", rooted ? "0" : "-1")
        << half << half << "\n";
  }
  out << "# Out of bounds values : 0 OK\n"
      << "# Avg bus bandwidth    : " << fmt::format("{:g}", rows.empty() ? 0.0 : busbw_sum / (2.0 * static_cast<double>(rows.size()))) << " \n"
      << "#\n";
}

}  // namespace scalecast
