// Iteration boundaries from the timeline: an iteration ends when its last task ends; the steady
// state is the mean spacing of those ends after the first iteration.
#include "sim/steady_state.h"

#include <algorithm>
#include <stdexcept>

namespace scalecast {

IterationStats steady_state(const Schedule& s, const Timeline& tl) {
  if (s.iterations < 2) throw std::invalid_argument("steady state needs at least two iterations");
  IterationStats st;
  st.iteration_ends_s = iteration_spans(tl, task_iterations(s), s.iterations).ends_s;
  st.iteration_s = (st.iteration_ends_s.back() - st.iteration_ends_s.front()) / (s.iterations - 1);
  double compute = 0;
  for (const Task& t : s.tasks)
    if (t.kind != TaskKind::comm && t.iteration == s.iterations - 1) compute += t.duration_s;
  st.compute_s = compute;
  st.exposed_comm_s = std::max(0.0, st.iteration_s - st.compute_s);
  return st;
}

}  // namespace scalecast
