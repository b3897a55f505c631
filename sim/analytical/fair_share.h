// Fluid max-min fair sharing of links among concurrent transfers (progressive filling), the
// bandwidth model TCP and RDMA flows follow when several of them cross the same NIC.
#pragma once

#include <cstdint>
#include <functional>
#include <unordered_map>
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
  bool active() const { return flows_ > 0; }
  // Absolute time of the next completion at the current rates (infinity when none is active).
  double next_completion();
  // Moves the flows forward to `now` (never back) and returns the tags of those that completed
  // by then (valid until the next call); every flow's tag is returned exactly once.
  const std::vector<int>& advance(double now);
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
  // Rates follow the flows in progress; they are worked out again only when asked for after a
  // change, so that the flows starting and ending at one instant cost one refill, not one each.
  void recompute_rates();
  void fill_rates();  // progressive filling of the active paths
  void refresh_rates() {
    if (stale_) recompute_rates();
    stale_ = false;
  }
  bool saturated(size_t link) const { return left_[link] <= 1e-12 * capacity_[link]; }

  std::vector<double> capacity_;
  std::vector<Path> paths_;
  std::vector<int> active_;            // paths with flows in progress, in path order (as of the
                                       // last refill)
  std::vector<int> done_;              // what the last advance() completed
  // Scratch of recompute_rates, kept to avoid allocations: per link, what is left of it, the
  // demand of the unfrozen paths on it, and whether an active path uses it; the links in use.
  std::vector<double> left_, demand_;
  std::vector<char> in_use_;
  std::vector<int> used_links_, unfrozen_;
  // The rates depend on nothing but how many flows each path has, and a run meets the same mix
  // again and again (every iteration, every server in turn): refills done before, by the active
  // paths and their flow counts (path << 32 | flows), with the rate of each active path.
  struct KeyHash {
    size_t operator()(const std::vector<std::uint64_t>& key) const;
  };
  std::unordered_map<std::vector<std::uint64_t>, std::vector<double>, KeyHash> known_rates_;
  std::vector<std::uint64_t> key_;
  int flows_ = 0;
  bool stale_ = false;
  double now_ = 0;
};

}  // namespace scalecast
