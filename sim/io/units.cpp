// Strict parsing and formatting of quantities with units (durations, rates, sizes, FLOP/s).
// Every parser accepts "<number><unit>" with optional spaces and rejects anything else.
#include "sim/io/units.h"

#include <charconv>
#include <cmath>
#include <fmt/format.h>
#include <map>
#include <utility>
#include <vector>

#include "sim/io/input_error.h"
#include "sim/io/input_text.h"

namespace scalecast::units {
namespace {

struct Split {
  double value;
  std::string unit;
};

// Splits "12.5 Gbps" into 12.5 and "Gbps"; throws if there is no leading number.
Split split_number(std::string_view text, std::string_view what) {
  while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
  while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
  double value = 0;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec == std::errc::result_out_of_range)
    throw InputError("expected " + std::string(what) + " that a double holds, got " + quote_input(text));
  if (ec != std::errc() || ptr == text.data() || !std::isfinite(value))  // "nan" and "inf" are no quantity
    throw InputError("expected " + std::string(what) + ", got " + quote_input(text));
  std::string unit(ptr, text.data() + text.size());
  while (!unit.empty() && unit.front() == ' ') unit.erase(0, 1);
  return {value, unit};
}

// Looks the unit up in the table; the error lists the accepted spellings.
double lookup(const std::map<std::string, double>& table, const Split& s, std::string_view text,
              std::string_view what, std::string_view examples) {
  auto it = table.find(s.unit);
  if (it == table.end())
    throw InputError("expected " + std::string(what) + " with a unit such as " +
                    std::string(examples) + ", got " + quote_input(text));
  const double value = s.value * it->second;
  if (!std::isfinite(value))
    throw InputError("expected " + std::string(what) + " that a double holds, got " + quote_input(text));
  return value;
}

const std::map<std::string, double>& prefixes() {
  static const std::map<std::string, double> p = {
      {"", 1.0},       {"k", 1e3},   {"K", 1e3},   {"M", 1e6},   {"G", 1e9},
      {"T", 1e12},     {"P", 1e15},  {"Ki", 1024.0}, {"Mi", 1024.0 * 1024.0},
      {"Gi", 1024.0 * 1024.0 * 1024.0}, {"Ti", 1024.0 * 1024.0 * 1024.0 * 1024.0}};
  return p;
}

std::map<std::string, double> with_prefixes(std::initializer_list<std::pair<std::string, double>> bases) {
  std::map<std::string, double> table;
  for (const auto& [prefix, factor] : prefixes())
    for (const auto& [base, scale] : bases) table[prefix + base] = factor * scale;
  return table;
}

using PrefixSteps = std::vector<std::pair<double, const char*>>;

const PrefixSteps& decimal_steps() {
  static const PrefixSteps steps = {{1e15, "P"}, {1e12, "T"}, {1e9, "G"},
                                    {1e6, "M"},  {1e3, "k"},  {1.0, ""}};
  return steps;
}

const PrefixSteps& binary_steps() {
  static const PrefixSteps steps = {{0x1p50, "Pi"}, {0x1p40, "Ti"}, {0x1p30, "Gi"},
                                    {0x1p20, "Mi"}, {0x1p10, "Ki"}, {1.0, ""}};
  return steps;
}

std::string format_with_prefix(double value, const char* unit, const PrefixSteps& steps) {
  for (const auto& [scale, prefix] : steps) {
    if (std::fabs(value) >= scale) return fmt::format("{:.3g} {}{}", value / scale, prefix, unit);
  }
  return fmt::format("{:.3g} {}", value, unit);
}

}  // namespace

double parse_duration(std::string_view text) {
  static const std::map<std::string, double> table = {
      {"ns", 1e-9}, {"us", 1e-6}, {"ms", 1e-3}, {"s", 1.0}, {"min", 60.0}, {"h", 3600.0}};
  return lookup(table, split_number(text, "a duration"), text, "a duration", "25us, 1.5ms, 2s");
}

double parse_rate(std::string_view text) {
  static const std::map<std::string, double> table =
      with_prefixes({{"bps", 1.0 / 8.0}, {"bit/s", 1.0 / 8.0}, {"b/s", 1.0 / 8.0}, {"B/s", 1.0}});
  return lookup(table, split_number(text, "a data rate"), text, "a data rate",
                "10Gbps, 100Gbit/s, 12GB/s");
}

double parse_bytes(std::string_view text) {
  Split s = split_number(text, "a size");
  if (s.unit.empty()) {
    if (s.value != std::floor(s.value))
      throw InputError("expected a whole number of bytes, got " + quote_input(text));
    return s.value;
  }
  static const std::map<std::string, double> table = with_prefixes({{"B", 1.0}});
  return lookup(table, s, text, "a size", "4MB, 25MiB, 512B");
}

double parse_flops(std::string_view text) {
  static const std::map<std::string, double> table =
      with_prefixes({{"FLOPS", 1.0}, {"FLOP/s", 1.0}});
  return lookup(table, split_number(text, "a compute rate"), text, "a compute rate",
                "15.7TFLOPS, 125TFLOP/s");
}

std::string format_seconds(double seconds) {
  const double a = std::fabs(seconds);
  if (a >= 1.0 || a == 0.0) return fmt::format("{:.4g} s", seconds);
  if (a >= 1e-3) return fmt::format("{:.4g} ms", seconds * 1e3);
  if (a >= 1e-6) return fmt::format("{:.4g} us", seconds * 1e6);
  return fmt::format("{:.4g} ns", seconds * 1e9);
}

std::string format_rate(double bytes_per_second) {
  return format_with_prefix(bytes_per_second, "B/s", decimal_steps());
}
std::string format_bytes(double bytes) { return format_with_prefix(bytes, "B", decimal_steps()); }
std::string format_memory(double bytes) { return format_with_prefix(bytes, "B", binary_steps()); }

}  // namespace scalecast::units
