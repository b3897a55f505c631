// Per-rank plans: each communication task goes through collectives::expand, exactly as in the
// simulator, and every rank keeps the transfers it sends or receives, tagged alike at both ends.
#include "executor/rank_plan.h"

#include <cmath>
#include <map>
#include <stdexcept>
#include <utility>

#include "sim/io/input_error.h"
#include "sim/types/timeline.h"

namespace scalecast::executor {

int server_processes(const Schedule& s) {
  if (s.strategy.aggregation != Aggregation::parameter_server || s.cluster.ps.placement != Placement::dedicated) return 0;
  return s.cluster.ps.count(s.cluster.nodes, s.gpus());
}

int world_size(const Schedule& s) { return s.gpus() + server_processes(s); }

std::uint64_t transfer_tag(int task, int step, int occurrence) {
  // 0x5C in the top byte keeps these clear of the slots Gloo's own collectives build.
  return (std::uint64_t{0x5C} << 56) | (static_cast<std::uint64_t>(task) << 24) |
         (static_cast<std::uint64_t>(step & 0xFFF) << 12) | static_cast<std::uint64_t>(occurrence & 0xFFF);
}

std::vector<std::vector<PeerOp>> rank_steps(const collectives::Expansion& e, int rank, int task) {
  std::vector<std::vector<PeerOp>> steps;
  for (std::size_t k = 0; k < e.steps.size(); ++k) {
    std::map<std::pair<int, int>, int> seen;  // (src, dst) -> transfers so far in this step
    std::vector<PeerOp> mine;
    for (const collectives::Transfer& t : e.steps[k]) {
      const int occurrence = seen[{t.src, t.dst}]++;
      if (t.src == t.dst) continue;
      const auto bytes = static_cast<std::size_t>(std::llround(t.bytes));
      const std::uint64_t tag = transfer_tag(task, static_cast<int>(k), occurrence);
      if (t.src == rank) mine.push_back({t.dst, true, bytes, tag});
      if (t.dst == rank) mine.push_back({t.src, false, bytes, tag});
    }
    if (!mine.empty()) steps.push_back(std::move(mine));
  }
  return steps;
}

RankPlan plan_rank(const Schedule& s, int rank) {
  RankPlan p;
  p.rank = rank;
  p.gpus = s.gpus();
  p.world = world_size(s);
  if (rank < 0 || rank >= p.world)
    throw InputError("rank " + std::to_string(rank) + " is outside the schedule's " +
                     std::to_string(p.world) + " ranks");
  const bool gpu = rank < p.gpus;
  for (const Task& t : s.tasks) {
    RankTask rt;
    if (t.kind != TaskKind::comm) {
      rt.role = gpu ? Role::compute : Role::skip;
      rt.track = track_name(t, rank);
    } else if (t.op == CommOp::push || t.op == CommOp::pull) {
      rt.steps = rank_steps(collectives::expand(s, t), rank, t.id);
      rt.role = rt.steps.empty() ? Role::skip : Role::ps;
      rt.track = track_name(t, rank);
    } else {
      rt.steps = rank_steps(collectives::expand(s, t), rank, t.id);
      rt.role = gpu ? Role::channel : Role::skip;
      rt.track = track_name(t, rank);
      if (gpu) ++p.channel_tasks;
    }
    p.tasks.push_back(std::move(rt));
  }
  return p;
}

}  // namespace scalecast::executor
