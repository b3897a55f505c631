// Names and printed formulas of the sweep operations; the arithmetic is inline in bandwidth.h.
// The formula strings must match executor/README.md word for word (bandwidth_test checks it).
#include "executor/bandwidth.h"
#include "sim/io/input_error.h"

namespace scalecast::executor {

SweepOp parse_sweep_op(const std::string& text) {
  if (text == "allreduce") return SweepOp::allreduce;
  if (text == "sendrecv") return SweepOp::sendrecv;
  throw InputError("unknown sweep operation '" + text + "' (known: allreduce, sendrecv)");
}

std::string to_string(SweepOp op) { return op == SweepOp::allreduce ? "allreduce" : "sendrecv"; }

std::string algbw_formula() { return "algbw = size / time"; }

std::string busbw_formula(SweepOp op) {
  return op == SweepOp::allreduce ? "busbw = algbw * 2*(n-1)/n" : "busbw = algbw";
}

}  // namespace scalecast::executor
