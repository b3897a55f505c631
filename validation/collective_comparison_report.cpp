// The comparison of a measured nccl-tests run with scalecast's prediction, in the forms
// `scalecast collective --compare` writes.
#include "validation/collective_comparison_report.h"

#include <cmath>
#include <fmt/format.h>

#include "sim/report/text_table.h"

namespace scalecast::validation {

CollectiveSweep comparison_sweep(const CollectiveComparison& comparison, const std::string& scenario,
                                 collectives::CollectiveOp op, const std::string& type) {
  const int type_bytes = nccl_tests_type_bytes(type);
  CollectiveSweep sweep{.scenario = scenario, .op = op, .type = type, .gpus = comparison.sized.gpus(),
                        .nodes = comparison.sized.nodes, .gpus_per_thread = comparison.gpus_per_thread,
                        .shape = cluster_shape(comparison.sized), .rows = {}};
  for (const auto& c : comparison.sizes)
    sweep.rows.push_back({{{c.bytes, std::floor(c.bytes / type_bytes)}, c.predicted_us}, c.algorithm, c.bound,
                          c.measured_us});
  return sweep;
}

void write_comparison_table(std::ostream& out, const CollectiveComparison& k, const std::string& measured_path,
                            const std::string& scenario) {
  out << "measured " << measured_path << " against " << scenario << ": " << cluster_shape(k.sized) << ", "
      << k.gpus_per_thread << " GPU(s) per thread\n\n";
  TextTable t({"size", "measured", "predicted", "error", "algorithm", "set by"}, {"B", "us", "us", "%", "", ""});
  for (const auto& c : k.sizes)
    t.add_row({fmt::format("{:.0f}", c.bytes), fmt::format("{:.2f}", c.measured_us), fmt::format("{:.2f}", c.predicted_us),
               fmt::format("{:+.1f}", c.error_pct()), c.algorithm, c.bound.empty() ? "-" : c.bound});
  t.write(out);
  out << "\nmean |error|: " << (k.latency_sizes ? fmt::format("{:.1f}%", k.latency_mape) : "-") << " below 64 KiB ("
      << k.latency_sizes << " sizes), " << (k.bandwidth_sizes ? fmt::format("{:.1f}%", k.bandwidth_mape) : "-")
      << " from 1 MiB (" << k.bandwidth_sizes << " sizes)\n";
  if (k.bucket_sizes)
    out << fmt::format("mean error from 1 to 64 MiB: {:+.1f}% ({} sizes; negative: predicted faster than measured)\n",
                       k.bucket_bias, k.bucket_sizes);
}

}  // namespace scalecast::validation
