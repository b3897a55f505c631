// Fluid max-min fair sharing of links among concurrent transfers (progressive filling), the
// bandwidth model TCP and RDMA flows follow when several of them cross the same NIC.
#pragma once

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
  bool active() const { return !flows_.empty(); }
  // Absolute time of the next completion at the current rates (infinity when none is active).
  double next_completion() const;
  // Moves the flows forward to `now` (never back) and returns the tags of those that completed
  // by then; every flow's tag is returned exactly once.
  std::vector<int> advance(double now);
  double now() const { return now_; }

 private:
  struct Flow {
    int tag;
    double remaining;
    int path;  // index in paths_: flows over the same links at the same weights share a rate
    double rate = 0;
  };
  struct Path {
    std::vector<Use> uses;
    double cap = 0;  // per flow (0: none)
    int flows = 0;   // active flows on it
    double rate = 0;
  };
  void recompute_rates();

  std::vector<double> capacity_;
  std::vector<Path> paths_;
  std::vector<Flow> flows_;
  double now_ = 0;
};

}  // namespace scalecast
