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
  // std::logic_error (a bug of the caller) for a flow that could never complete (bytes not
  // finite, a use of no link or of a link of no capacity).
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
  // the same bytes since it started: a path keeps that running total (`work`, as of `since`) and
  // its flows as the total at which each completes, in a heap, earliest first. An event costs
  // O(paths), not O(flows), and one at which nothing starts or ends costs O(1).
  struct Path {
    int first_use = 0, uses = 0;  // its uses, in uses_
    double cap = 0;               // per flow (0: none)
    double rate = 0;              // of each of its flows
    double work = 0, since = 0;   // bytes each flow on it has carried by time `since`
    double finish_at = std::numeric_limits<double>::infinity();  // of its first flow, at `rate`
    std::size_t solved_flows = 0;  // its flows when `rate` was last worked out
    int witness = kInactive;       // why `rate` is max-min: the link it is a bottleneck on, or kAtCap
    bool touched = false;          // flows started or ended on it since finish_at was worked out
    std::vector<std::pair<double, int>> finishing;  // (work at completion, tag), a min-heap
  };
  static constexpr int kAtCap = -1, kNoWitness = -2, kInactive = -3;
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
  void touch(int path);  // marks it for the next refill
  void settle(Path& p);  // carries the path's work forward to now_ at its rate
  // Most changes start or end flows on one or two paths (a node-local stage, a transfer) and
  // leave the others' rates max-min: takes the changed paths out of their links' loads, fills them
  // into what is left, and checks the bottleneck of every path whose bottleneck link they
  // touched. Returns false when one has none; the caller then fills every path from scratch.
  bool update_changed();
  void refill_all();  // progressive filling of every active path from 0
  // A path's rate is max-min when it is at its cap or crosses a saturated link on which no path
  // has a higher rate; finds that witness and returns whether there is one.
  bool find_witness(Path& p);
  void set_witness(Path& p, int witness);  // keeps witnessed_ and unwitnessed_
  // The rate progressive filling gives a path filled alone into what the others leave.
  double rate_alone(const Path& p) const;
  void start_filling(const std::vector<int>& paths);  // their links, with what is left of each
  void fill(std::vector<int>& unfrozen);  // raises `unfrozen` together until each is frozen
  bool saturated(int link) const { return left_[link] <= 1e-12 * capacity_[link]; }

  std::vector<double> capacity_;
  std::vector<double> load_;  // per link: what the active paths take of it at their rates
  std::vector<std::vector<int>> link_paths_;  // per link: the paths that cross it
  std::vector<Use> uses_;
  std::vector<Path> paths_;
  std::vector<int> active_;   // paths with flows in progress (as of the last refill), in order
  std::vector<int> touched_;  // paths flows started or ended on since the last refill
  std::vector<int> changed_;  // those of them whose number of flows changed
  std::vector<int> done_;     // what the last advance() completed
  // Scratch of the refills, kept to avoid allocations: per link, what is left of it, the demand
  // of the unfrozen paths on it and whether a path being filled uses it; those links.
  std::vector<double> left_, demand_;
  std::vector<char> in_use_;
  std::vector<int> used_links_, unfrozen_;
  std::vector<int> witnessed_;  // per link: active paths that have it as their witness
  int unwitnessed_ = 0;         // active paths with kNoWitness
  int flows_ = 0;
  int updates_since_refill_ = 0;  // loads updated in place drift by rounding: refilled now and then
  bool stale_ = false;
  double now_ = 0;
  double next_ = std::numeric_limits<double>::infinity();  // next completion at the current rates
};

}  // namespace scalecast
