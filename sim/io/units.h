// Quantities with units, parsed strictly at the boundary (YAML, CLI) and formatted for people, as
// doubles in SI base units (seconds, bytes, bytes/s, FLOP/s); sim/types/quantities.h types them.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>


namespace scalecast::units {

// Prefixes: k/K = 1e3, M = 1e6, G = 1e9, T = 1e12, P = 1e15; Ki/Mi/Gi/Ti = powers of 1024.
// "b" is bits, "B" is bytes (ns-3's DataRate convention).

// "25us", "1.5ms", "2s", "100ns", "1min"  -> seconds. A bare number is rejected.
double parse_duration(std::string_view text);
// "10Gbps", "100Gbit/s", "12GB/s", "800MiB/s" -> bytes per second. "10Gbs" is rejected.
double parse_rate(std::string_view text);
// "4MB", "25MiB", "512B", "536870912" (a bare integer means bytes) -> bytes.
double parse_bytes(std::string_view text);
// "15.7TFLOPS", "125TFLOP/s" -> FLOP per second.
double parse_flops(std::string_view text);

// Human-readable forms: "12.3 ms", "1.25 GB/s", "25.0 MB" (decimal prefixes).
std::string format_seconds(double seconds);
std::string format_rate(double bytes_per_second);
std::string format_bytes(double bytes);
// Device memory, in binary prefixes as GPU data sheets count it: "32 GiB", "1.5 MiB".
std::string format_memory(double bytes);

constexpr double kGbps = 1e9 / 8.0;  // bytes per second in one Gbit/s
constexpr double kGBps = 1e9;        // bytes per second in one GB/s (nccl-tests: GB = 1e9 B)
constexpr double kMiB = 1024.0 * 1024.0;
constexpr double kGiB = 1024.0 * kMiB;

}  // namespace scalecast::units
