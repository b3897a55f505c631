// Computation slowed by communication on the same GPU (Cluster::compute_slowdown): the rate, and
// the work left counted down interval by interval.
#include "sim/scheduling/compute_slowdown.h"

#include <algorithm>

#include "sim/scheduling/scheduling_policy.h"

namespace scalecast::scheduling {

bool communicates(const Task& task) {
  const Lane lane = lane_of(task);
  return lane == Lane::channel || lane == Lane::transfer;
}

double compute_rate(const Cluster& cluster, int in_flight) {
  return in_flight > 0 ? 1 / (1 + cluster.compute_slowdown) : 1;
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
