// Computation slowed by communication on the same GPU (Cluster::compute_slowdown): the rate, and
// the work left counted down interval by interval.
#include "sim/scheduling/compute_slowdown.h"

#include <algorithm>

namespace scalecast::scheduling {

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
