// The bounds of every number scalecast reads, and how an error states them. A bandwidth of
// 1e-300 bit/s or a latency of 1e300 h is no cluster: such values stall a simulation's clock.
#include "sim/io/ranges.h"

#include <cmath>
#include <fmt/format.h>

namespace scalecast {
namespace {

std::string figure(double x) { return fmt::format("{:.15g}", x); }

}  // namespace

Bound Bound::between(double low, double high) { return {low, true, high, false, ""}; }

bool Bound::contains(double x) const {
  if (!std::isfinite(x)) return false;
  if (zero_allowed && x == 0) return true;
  return (min_inclusive ? x >= min : x > min) && x <= max;
}

std::string Bound::describe() const {
  if (!text.empty()) return text;
  return std::string(zero_allowed ? "0 or " : "") + "in " + (min_inclusive ? "[" : "(") +
         figure(min) + ", " + figure(max) + "]";
}

namespace ranges {

Bound latency() { return {0, true, 10, false, "in [0, 10 s]"}; }
Bound cycle() { return {0, false, 10, false, "in (0, 10 s]"}; }
Bound compute_time() { return {0, true, 3600, false, "in [0, 1 h]"}; }
Bound rate() { return {1e3 / 8, true, 100e12 / 8, false, "in [1 kbit/s, 100 Tbit/s]"}; }
Bound rate_or_none() {
  Bound b = rate();
  b.zero_allowed = true;
  b.text = "0 or in [1 kbit/s, 100 Tbit/s]";
  return b;
}
Bound size() { return {0, false, kMaxBytes, false, "in (0, 1 PB]"}; }
Bound size_or_none() { return {0, true, kMaxBytes, false, "in [0, 1 PB]"}; }
Bound efficiency() { return {0.01, true, 1, false, "in [0.01, 1]"}; }
Bound slowdown() { return {0, true, 10, false, "in [0, 10]"}; }
Bound oversubscription() { return {1, true, 1000, false, "in [1, 1000]"}; }
Bound throughput() { return {1e-3, true, 1e9, false, "in [0.001, 1e9] samples/s"}; }
Bound price() { return {0, true, 1e6, false, "in [0, 1e6] per hour"}; }
Bound samples() { return {1, true, 1e18, false, "in [1, 1e18] samples"}; }

}  // namespace ranges
}  // namespace scalecast
