// Sizing a measured collective run on a scenario's cluster and predicting each of its sizes.
#include "validation/collective_comparison.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "sim/collectives/nccl_model.h"
#include "sim/io/input_error.h"
#include "sim/scenario/run_setup.h"

namespace scalecast::validation {

CollectiveComparison compare_collective(const Scenario& s, const calibration::NcclTestsOutput& m, int gpus, int nodes,
                                        int gpus_per_thread) {
  if (m.ranks > 0 && gpus > 0 && m.ranks != gpus)
    throw InputError(InputKind::file, m.source + ": its device lines name " + std::to_string(m.ranks) + " ranks, expected " +
                         std::to_string(gpus));
  if (gpus == 0) gpus = m.ranks;
  if (gpus == 0) {
    if (s.gpus.size() != 1)
      throw InputError(InputKind::file, s.path + ": gpus: expected the run's GPU count (the output has no device lines), got " +
                           std::to_string(s.gpus.size()) + " counts");
    gpus = s.gpus.front();
  }
  if (nodes == 0) nodes = m.nodes;
  Cluster base = s.cluster;
  if (nodes > 0) base.fixed_nodes = nodes;
  CollectiveComparison out;
  out.sized = sized_for(base, gpus);
  out.gpus_per_thread = gpus_per_thread > 0 ? gpus_per_thread : m.gpus_per_thread;
  const collectives::nccl::NcclModel model = collectives::nccl::nccl_model(out.sized, s.strategy.nccl);
  double latency = 0, bandwidth = 0, bucket = 0;
  for (const auto& r : m.rows) {
    if (!(r.bytes > 0)) continue;
    const auto t = model.time(m.op, r.bytes, out.gpus_per_thread);
    ComparedSize c{r.bytes, r.time_us, t.seconds * 1e6, t.algorithm + " x" + std::to_string(t.channels), t.bound};
    const double e = std::abs(c.error_pct());
    if (r.bytes < kLatencyRegimeBytes) latency += e, ++out.latency_sizes;
    if (r.bytes >= kBandwidthRegimeBytes) {
      bandwidth += e;
      ++out.bandwidth_sizes;
      out.bandwidth_max = std::max(out.bandwidth_max, e);
      if (r.bytes <= kBucketSizesMaxBytes) bucket += c.error_pct(), ++out.bucket_sizes;
    }
    out.sizes.push_back(std::move(c));
  }
  if (out.latency_sizes > 0) out.latency_mape = latency / out.latency_sizes;
  if (out.bandwidth_sizes > 0) out.bandwidth_mape = bandwidth / out.bandwidth_sizes;
  if (out.bucket_sizes > 0) out.bucket_bias = bucket / out.bucket_sizes;
  return out;
}

}  // namespace scalecast::validation
