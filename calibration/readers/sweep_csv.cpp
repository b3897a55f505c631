// The executor's sweep CSV as collective samples: op, ranks (one per host), implementation, size,
// time; the library's all-reduce (Gloo) is its ring.
#include "calibration/readers/sweep_csv.h"

#include "sim/collectives/allreduce_algorithm.h"
#include "sim/io/csv.h"
#include "sim/io/input_error.h"
#include "sim/io/ranges.h"

namespace scalecast::calibration {

bool is_sweep_csv_header(const std::string& first_line) {
  return first_line.rfind("op,ranks,transport,implementation,bytes,time_s", 0) == 0;
}

std::vector<CollectiveSample> read_sweep_csv(const std::string& path) {
  const CsvFile csv(path);
  std::vector<CollectiveSample> out;
  for (const CsvRecord& r : csv.records()) {
    CollectiveSample s;
    s.where = path + ":" + std::to_string(r.line());
    const std::string& op = r.non_empty("op");
    if (op != "allreduce" && op != "sendrecv") r.fail("op", "allreduce or sendrecv");
    s.op = collectives::parse_collective_op(op);
    s.nodes = r.integer("ranks", 2, ranges::kMaxGpus);
    s.gpus_per_node = 1;
    s.bytes = r.number("bytes", ranges::size());
    s.time_s = r.number("time_s", {0, false, 3600, false, "in (0, 1 h]"});
    // The executor runs its sweeps over Gloo (TCP) or NCCL (GPUs): their sockets differ.
    const std::string& transport = r.non_empty("transport");
    if (transport != "gloo" && transport != "nccl") r.fail("transport", "gloo or nccl");
    s.library = parse_collective_library(transport);
    const std::string& impl = r.non_empty("implementation");
    if (s.op == collectives::CollectiveOp::all_reduce) {
      // Gloo's own all-reduce (--reference) is its ring algorithm.
      s.algorithm = impl == "library" ? "ring" : impl;
      if (!collectives::find_allreduce(s.algorithm))
        r.fail("implementation", "a registered all-reduce (" + collectives::allreduce_names(false) + ") or library");
    }
    out.push_back(s);
  }
  if (out.empty()) throw InputError(InputKind::file, path + ": expected measured sizes, got none");
  return out;
}

}  // namespace scalecast::calibration
