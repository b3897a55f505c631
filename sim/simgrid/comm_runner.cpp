// Communication tasks as SimGrid flows: each step's transfers start together and the step ends
// when the last one arrives; reductions fold repeated steps and reuse repeated collectives.
#include "sim/simgrid/comm_runner.h"

#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Comm.hpp>
#include <simgrid/s4u/Engine.hpp>

#include <cmath>
#include <vector>

namespace scalecast::simgrid_backend {
namespace {

namespace sg4 = simgrid::s4u;

bool same_step(const std::vector<collectives::Transfer>& a, const std::vector<collectives::Transfer>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (a[i].src != b[i].src || a[i].dst != b[i].dst || a[i].bytes != b[i].bytes) return false;
  return true;
}

bool is_collective(const Task& t) { return t.op != CommOp::push && t.op != CommOp::pull; }

}  // namespace

void CommRunner::run(const Task& task) {
  // One collective call or PS request starts all its transfers at once: its software overhead
  // is paid once, as in the analytical backend.
  const double overhead = s_.cluster.net.call_overhead_s + s_.strategy.call_overhead_s;
  if (overhead > 0) sg4::this_actor::sleep_for(overhead);
  const auto key = std::make_tuple(task.op, task.algorithm, task.bytes);
  const bool memoizable = reduced_ && is_collective(task);
  if (memoizable) {
    if (auto it = memo_.find(key); it != memo_.end()) {
      stats_.transfers_expanded += it->second.transfers;
      sg4::this_actor::sleep_for(it->second.duration_s);
      return;
    }
  }
  const double start = sg4::Engine::get_clock();
  const collectives::Expansion e = collectives::expand(s_, task);
  run_expansion(e);
  if (memoizable) memo_[key] = {sg4::Engine::get_clock() - start, e.transfer_count()};
}

void CommRunner::run_expansion(const collectives::Expansion& e) {
  stats_.transfers_expanded += e.transfer_count();
  for (size_t i = 0; i < e.steps.size();) {
    size_t j = i + 1;
    if (reduced_)
      while (j < e.steps.size() && same_step(e.steps[j], e.steps[i])) ++j;
    const double start = sg4::Engine::get_clock();
    run_step(e.steps[i]);
    if (j - i > 1) sg4::this_actor::sleep_for(static_cast<double>(j - i - 1) * (sg4::Engine::get_clock() - start));
    i = j;
  }
}

void CommRunner::run_step(const std::vector<collectives::Transfer>& step) {
  std::vector<sg4::CommPtr> comms;
  comms.reserve(step.size());
  for (const collectives::Transfer& t : step) {
    if (t.src == t.dst) continue;
    comms.push_back(sg4::Comm::sendto_async(p_.endpoints[t.src], p_.endpoints[t.dst],
                                            static_cast<uint64_t>(std::llround(t.bytes))));
  }
  stats_.transfers_simulated += comms.size();
  sg4::Comm::wait_all(comms);
}

}  // namespace scalecast::simgrid_backend
