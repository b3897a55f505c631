// Computation slowed by communication on the same GPU: the rate a compute task runs at, and its
// work left as that rate changes. Both backends time the compute stream with it.
#pragma once

#include "sim/cluster.h"

namespace scalecast::scheduling {

// The rate (1 = alone) at which a GPU computes: 1 / (1 + compute_slowdown) while any of its
// collectives or transfers runs (SchedulingPolicy::communicating).
double compute_rate(const Cluster& cluster, bool communicating);

// One compute task's work, in seconds at full rate, counted down at the rate of each interval.
class ComputeWork {
 public:
  void start(double work_s, double now_s);
  // The rate from now_s on; returns whether the end moved (the rate changed).
  bool retime(double now_s, double rate);
  double end_s() const { return since_s_ + left_s_ / rate_; }

 private:
  double left_s_ = 0, since_s_ = 0, rate_ = 1;
};

}  // namespace scalecast::scheduling
