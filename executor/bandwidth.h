// The bandwidth figures of a collective sweep, with nccl-tests' definitions (doc/PERFORMANCE.md):
// one formula each, written here once and once in executor/README.md; a test checks both.
#pragma once

#include <stdexcept>
#include <string>

namespace scalecast::executor {

enum class SweepOp { allreduce, sendrecv };

SweepOp parse_sweep_op(const std::string& text);  // "allreduce" | "sendrecv"
std::string to_string(SweepOp op);

// algbw = size / time, in bytes/s: size is the buffer each rank passes to the operation
// (all-reduce: the whole vector; sendrecv: what each rank sends).
inline double algbw(double bytes, double seconds) {
  if (!(seconds > 0)) throw std::logic_error("algbw: time must be positive");
  return bytes / seconds;
}

// busbw = algbw * factor, the rate each rank's link must carry: 2(n-1)/n for all-reduce (a ring
// sends and receives that share of the vector), 1 for sendrecv.
inline double busbw_factor(SweepOp op, int ranks) {
  if (ranks < 1) throw std::logic_error("busbw: needs at least one rank");
  return op == SweepOp::allreduce ? 2.0 * (ranks - 1) / ranks : 1.0;
}

inline double busbw(SweepOp op, int ranks, double bytes, double seconds) {
  return algbw(bytes, seconds) * busbw_factor(op, ranks);
}

// The formulas as printed under the sweep table and written in executor/README.md.
std::string algbw_formula();
std::string busbw_formula(SweepOp op);

}  // namespace scalecast::executor
