// The ranges every number read from a file or the command line must lie in: physically
// meaningful bounds on latencies, rates, sizes and counts, each stated in the errors that cite it.
#pragma once

#include <cstdint>
#include <string>

namespace scalecast {

// An interval a number must lie in, and the words that say so in an error.
struct Bound {
  double min = 0;
  bool min_inclusive = true;
  double max = 0;              // inclusive
  bool zero_allowed = false;   // 0 is accepted too ("none"), below the interval
  std::string text;            // "in [1 kbit/s, 100 Tbit/s]"; empty: written from the figures

  static Bound between(double min, double max);  // [min, max]

  bool contains(double x) const;  // false for NaN and infinities
  std::string describe() const;   // "in [0, 10 s]", "0 or in [1 kbit/s, 100 Tbit/s]"
};

// The bounds, in SI base units (seconds, bytes, bytes/s). Products of bounded counts fit in int:
// kMaxGpus x kMaxBatch < 2^41 is computed in 64 bits or doubles wherever it is formed.
namespace ranges {

inline constexpr int kMaxGpus = 1 << 20;           // GPUs of one run (and parameter servers)
inline constexpr int kMaxGpusPerNode = 1024;
inline constexpr int kMaxBatch = 1 << 20;          // samples per GPU and iteration
inline constexpr int kMaxAccumulation = 1 << 12;   // micro-batches per optimizer step
inline constexpr int kMaxIterations = 100000;      // simulated iterations of one run
inline constexpr int kMaxStreams = 1024;           // streams one transfer spreads over
inline constexpr int kMaxSocketThreads = 16;       // NCCL_SOCKET_NTHREADS (net_socket.cc MAX_THREADS)
inline constexpr int kMaxSequence = 1 << 20;       // tokens per sequence
inline constexpr int kMaxVocabulary = 1 << 24;
inline constexpr int kMaxImageSize = 16384;        // pixels of an input's side
inline constexpr int kMaxClasses = 1 << 20;
inline constexpr int kMaxLayers = 100000;          // blocks of a model built by shape
inline constexpr int kMaxWidth = 1 << 20;          // hidden, intermediate and head counts
inline constexpr int64_t kMaxTensors = 1000000;    // gradient tensors of one model
inline constexpr double kMaxBytes = 1e15;          // 1 PB: a model's gradients, any message

Bound latency();           // [0, 10 s]: latencies, per-call overheads, a fusion buffer's wait
Bound cycle();             // (0, 10 s]: a fusion cycle
Bound compute_time();      // [0, 1 h]: one layer's forward or backward pass
Bound rate();              // [1 kbit/s, 100 Tbit/s]
Bound rate_or_none();      // 0 (none), or [1 kbit/s, 100 Tbit/s]
Bound size();              // (0, 1 PB]
Bound size_or_none();      // 0 (none, or an empty message), or (0, 1 PB]
Bound efficiency();        // [0.01, 1]: a share of a peak rate that is reached
Bound slowdown();          // [0, 10]: extra time as a share of the time alone
Bound oversubscription();  // [1, 1000]
Bound throughput();        // [0.001, 1e9] samples/s
Bound price();             // [0, 1e6] per hour of a GPU, node or server
Bound samples();           // [1, 1e18]: samples a training run processes

}  // namespace ranges
}  // namespace scalecast
