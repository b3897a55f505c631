// Fluid max-min fair sharing of links among concurrent transfers (progressive filling), the
// bandwidth model TCP and RDMA flows follow when several of them cross the same NIC.
#pragma once

#include <functional>
#include <queue>
#include <utility>
#include <vector>

namespace scalecast {

class FairShareLinks {
 public:
  // One use of a link by a flow: the flow's rate times `weight` is what it takes of the link
  // (a representative flow standing for `weight` identical ones, or carrying `weight` x bytes).
  struct Use {
    int link = 0;
    double weight = 1;
  };

  explicit FairShareLinks(std::vector<double> capacities);

  // Starts a flow of `bytes` at the current time, the last one advance() moved to; `tag` is
  // returned by the advance() that sees it complete. `cap`: the most bytes/s the flow itself can
  // carry, whatever the links leave it (TCP streams, host staging; 0: none). Throws
  // std::invalid_argument for a flow that could never complete (bytes not finite, a use of no
  // link or of a link of no capacity).
  void add(int tag, double bytes, std::vector<Use> uses, double cap = 0);
  bool active() const { return active_ > 0; }
  // Absolute time of the next completion at the current rates (infinity when none is active).
  double next_completion() const;
  // Moves the flows forward to `now` (never back) and returns the tags of those that completed
  // by then; every flow's tag is returned exactly once.
  std::vector<int> advance(double now);
  double now() const { return now_; }

 private:
  // Flows over the same links at the same weights and cap share one rate, so each has carried
  // the same bytes since it started: a path keeps that running total (`work`) and its flows as
  // the total at which each completes, earliest first. Every event then costs O(paths), not
  // O(flows).
  struct Path {
    std::vector<Use> uses;
    double cap = 0;   // per flow (0: none)
    double rate = 0;  // of each of its flows
    double work = 0;  // bytes each flow on it has carried since the path was made
    std::priority_queue<std::pair<double, int>, std::vector<std::pair<double, int>>, std::greater<>> finishing;
  };
  void recompute_rates();
  bool saturated(size_t link) const { return left_[link] <= 1e-12 * capacity_[link]; }

  std::vector<double> capacity_;
  std::vector<Path> paths_;
  std::vector<double> left_, demand_;  // scratch of recompute_rates, kept to avoid allocations
  std::vector<int> unfrozen_;
  int active_ = 0;
  double now_ = 0;
};

}  // namespace scalecast
