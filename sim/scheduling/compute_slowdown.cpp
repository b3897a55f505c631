// Computation slowed by communication on the same GPU (Cluster::compute_slowdown): its default
// from the SMs communication holds, the rate, and the work left counted down interval by interval.
#include "sim/scheduling/compute_slowdown.h"

#include <algorithm>

#include "sim/network/nccl/nccl_system.h"
#include "sim/catalogs/gpu_catalog.h"

namespace scalecast::scheduling {

double slowdown_from_held_sms(const Cluster& sized, const Strategy& strategy) {
  const int sms = has_gpu(sized.gpu) ? find_gpu(sized.gpu).sms : 0;
  if (sms <= 0) return kComputeSlowdownUnderComm;
  const bool nccl_kernels =
      strategy.aggregation == Aggregation::parameter_server ? sized.gpus_per_node > 1
      : strategy.aggregation == Aggregation::root_reduce    ? true
                                                            : strategy.library == CollectiveLibrary::nccl;
  if (!nccl_kernels) return 0;
  const collectives::nccl::NcclSystem system = collectives::nccl::nccl_system(sized, strategy.nccl);
  const int channels = collectives::nccl::nccl_graphs(system, strategy.nccl).comm_channels;
  return kSlowdownPerHeldSmShare * std::min(channels, sms) / sms;
}

double compute_rate(const Cluster& cluster, bool communicating) {
  return communicating ? 1 / (1 + cluster.compute_slowdown) : 1;
}

void ComputeWork::start(double work_s, double now_s) {
  left_s_ = work_s;
  since_s_ = now_s;
  rate_ = 1;
}

bool ComputeWork::retime(double now_s, double rate) {
  if (rate == rate_) return false;
  left_s_ = std::max(0.0, left_s_ - (now_s - since_s_) * rate_);
  since_s_ = now_s;
  rate_ = rate;
  return true;
}

}  // namespace scalecast::scheduling
