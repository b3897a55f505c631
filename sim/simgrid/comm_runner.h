// Runs one communication task inside the SimGrid replay: its point-to-point expansion step by
// step as concurrent flows, with the exact reductions that keep large collectives affordable.
#pragma once

#include <cstdint>
#include <map>
#include <tuple>

#include "sim/collectives/expansion.h"
#include "sim/schedule.h"
#include "sim/simgrid/platform_builder.h"

namespace scalecast::simgrid_backend {

struct CommStats {
  uint64_t transfers_expanded = 0;   // transfers the expansions of all comm tasks hold
  uint64_t transfers_simulated = 0;  // of those, run as SimGrid flows
};

class CommRunner {
 public:
  // `reduced`: the schedule's collectives run alone on the network (no push/pull traffic can
  // overlap them), so (1) a run of identical consecutive steps takes k times its first step,
  // and (2) a collective's duration depends only on (op, algorithm, bytes): both are simulated
  // once and reused. Callers switch it on only when that premise holds.
  CommRunner(const Schedule& schedule, const Platform& platform, bool reduced)
      : s_(schedule), p_(platform), reduced_(reduced) {}

  // Blocks the calling actor for the task's duration: per-call overhead, then the steps.
  void run(const Task& task);
  const CommStats& stats() const { return stats_; }

 private:
  void run_expansion(const collectives::Expansion& e);
  void run_step(const std::vector<collectives::Transfer>& step);

  const Schedule& s_;
  const Platform& p_;
  bool reduced_;
  CommStats stats_;
  struct Memo {
    double duration_s = 0;
    size_t transfers = 0;
  };
  std::map<std::tuple<CommOp, AllreduceAlgorithm, double>, Memo> memo_;  // collective -> its run
};

}  // namespace scalecast::simgrid_backend
