// Steady-state figures of a run from its timeline: for a measured run the mean spacing of
// iteration ends after the first; for a simulated one the spacing of two iterations' first forward
// passes' ends.
#include "sim/backends/steady_state.h"
#include "sim/io/input_error.h"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

namespace scalecast {
namespace {

// Compute time of one iteration on a GPU, and what of the iteration it leaves to communication.
void split(const Schedule& s, int iteration, IterationStats& st) {
  double compute = 0;
  for (const Task& t : s.tasks)
    if (t.kind != TaskKind::comm && t.iteration == iteration) compute += t.duration_s;
  st.compute_s = compute;
  st.exposed_comm_s = std::max(0.0, st.iteration_s - st.compute_s);
}

}  // namespace

IterationStats steady_state(const Schedule& s, const Timeline& tl) {
  if (s.iterations < 2) throw InputError("steady state needs at least two iterations");
  IterationStats st;
  st.iteration_ends_s = iteration_spans(tl, task_iterations(s), s.iterations).ends_s;
  st.iteration_s = (st.iteration_ends_s.back() - st.iteration_ends_s.front()) / (s.iterations - 1);
  split(s, s.iterations - 1, st);
  return st;
}

IterationStats simulated_steady_state(const Schedule& s, const Timeline& tl) {
  // The first micro-batch's forward pass of each iteration (all of it without accumulation): the
  // first forward tasks of iteration 0, one pass of them, and as many of iteration 1's.
  int forwards = 0;
  for (const Task& t : s.tasks) forwards += t.kind == TaskKind::forward && t.iteration == 0;
  const int pass = forwards / std::max(1, s.accumulation_steps);
  std::vector<bool> first_pass(s.tasks.size(), false);
  int seen[2] = {0, 0};
  for (const Task& t : s.tasks)
    if (t.kind == TaskKind::forward && t.iteration < 2 && seen[t.iteration]++ < pass) first_pass[t.id] = true;
  double forward_end[2] = {-1, -1};
  for (const TimelineEvent& e : tl.events) {
    const Task& t = s.tasks.at(static_cast<std::size_t>(e.task));
    if (first_pass[t.id]) forward_end[t.iteration] = std::max(forward_end[t.iteration], e.end_s);
  }
  if (forward_end[0] < 0 || forward_end[1] < 0)
    throw InputError("steady state of a schedule without two forward passes (" + std::to_string(s.iterations) +
                     " iterations)");
  IterationStats st;
  st.iteration_s = forward_end[1] - forward_end[0];
  split(s, 0, st);
  return st;
}

}  // namespace scalecast
