// Fluid max-min fair sharing of links among concurrent transfers (progressive filling), the
// bandwidth model TCP and RDMA flows follow when several of them cross the same NIC.
#pragma once

#include <cstddef>
#include <initializer_list>
#include <limits>
#include <span>
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
  void add(int tag, double bytes, std::span<const Use> uses, double cap = 0);
  void add(int tag, double bytes, std::initializer_list<Use> uses, double cap = 0) {
    add(tag, bytes, std::span<const Use>(uses.begin(), uses.size()), cap);
  }
  bool active() const { return flows_ > 0; }
  // Absolute time of the next completion at the current rates (infinity when none is active).
  double next_completion() {
    refresh_rates();
    return next_;
  }
  // Moves the flows forward to `now` (never back) and returns the tags of those that completed
  // by then (valid until the next call); every flow's tag is returned exactly once.
  const std::vector<int>& advance(double now);
  double now() const { return now_; }

 private:
  // Flows over the same links at the same weights and cap share one rate, so each has carried
  // the same bytes since it started: a path keeps that running total (`work`, as of `since_`) and
  // its flows as the total at which each completes, in a heap, earliest first. Every event then
  // costs O(paths), not O(flows), and one at which nothing starts or ends costs O(1).
  struct Path {
    int first_use = 0, uses = 0;  // its uses, in uses_
    double cap = 0;               // per flow (0: none)
    double rate = 0;              // of each of its flows
    double work = 0;              // bytes each flow on it has carried, as of since_
    std::size_t solved_flows = 0;  // its flows when `rate` was last worked out
    std::vector<std::pair<double, int>> finishing;  // (work at completion, tag), a min-heap
  };
  std::span<const Use> uses_of(const Path& p) const {
    return {uses_.data() + p.first_use, static_cast<std::size_t>(p.uses)};
  }
  // Rates follow the flows in progress; they are worked out again only when asked for after a
  // change, so that the flows starting and ending at one instant cost one refill, not one each.
  void refresh_rates() {
    if (stale_) recompute_rates();
    stale_ = false;
  }
  void recompute_rates();
  void catch_up();  // every path's work carried forward to now_ at its rate
  // Most changes start or end flows on one path (a node-local stage, a transfer) and leave the
  // others' rates as they were: keeps the rates of the unchanged paths, fills the changed ones
  // into what is left, and returns whether that is the max-min allocation (see is_max_min);
  // when not, the caller fills from scratch.
  bool reuse_rates();
  void fill_rates();  // progressive filling of every active path from 0
  // The allocation is feasible and every path is at its cap or crosses a saturated link on which
  // no path has a higher rate: the conditions that single out the max-min fair allocation.
  bool is_max_min();
  void start_filling();  // the links the active paths use, each with all of its capacity left
  void end_filling();
  void fill(std::vector<int>& unfrozen);  // raises `unfrozen` together until each is frozen
  bool saturated(int link, double tolerance = 1e-12) const { return left_[link] <= tolerance * capacity_[link]; }

  std::vector<double> capacity_;
  std::vector<Use> uses_;
  std::vector<Path> paths_;
  std::vector<int> active_;  // paths with flows in progress, in path order (as of the last refill)
  std::vector<int> done_;    // what the last advance() completed
  // Scratch of the refills, kept to avoid allocations: per link, what is left of it, the demand
  // of the unfrozen paths on it, the highest rate of a path across it and whether an active path
  // uses it; the links in use.
  std::vector<double> left_, demand_, top_rate_;
  std::vector<char> in_use_;
  std::vector<int> used_links_, unfrozen_;
  int flows_ = 0;
  bool stale_ = false;
  double now_ = 0, since_ = 0;
  double next_ = std::numeric_limits<double>::infinity();  // next completion at the current rates
};

}  // namespace scalecast
