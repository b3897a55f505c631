// Comparing two timelines of one schedule: the schedules must match task by task; iterations are
// timed from end to end, and a task from its last start to its last end over the ranks.
#include "sim/report/timeline_comparison.h"

#include "sim/io/input_error.h"
#include "sim/io/input_text.h"
#include "sim/types/timeline.h"

namespace scalecast {
namespace {

// Iteration i takes from the end of iteration i-1 (the first one: from the first event) to its
// own end, the latest end of any of its tasks on any rank.
std::vector<double> iteration_times(const TimelineFile& f) {
  std::vector<int> iteration_of;
  for (const TimelineTask& t : f.tasks) iteration_of.push_back(t.iteration);
  const IterationSpans spans = iteration_spans(f.timeline, iteration_of, f.iterations);
  std::vector<double> times;
  for (int i = 0; i < f.iterations; ++i)
    times.push_back(spans.ends_s[i] - (i == 0 ? spans.first_start_s : spans.ends_s[i - 1]));
  return times;
}

}  // namespace

void check_same_schedule(const TimelineFile& p, const TimelineFile& m, const std::string& pp, const std::string& mp) {
  auto differ = [&](const std::string& what) {
    throw InputError(InputKind::file, pp + " and " + mp + " are timelines of different schedules: " + what);
  };
  if (p.gpus != m.gpus) differ(std::to_string(p.gpus) + " vs " + std::to_string(m.gpus) + " GPUs");
  if (p.iterations != m.iterations) differ("different iteration counts");
  if (p.tasks.size() != m.tasks.size())
    differ(std::to_string(p.tasks.size()) + " vs " + std::to_string(m.tasks.size()) + " tasks");
  for (std::size_t i = 0; i < p.tasks.size(); ++i) {
    const TimelineTask &a = p.tasks[i], &b = m.tasks[i];
    if (a.kind != b.kind || a.name != b.name || a.iteration != b.iteration || a.op != b.op || a.bytes != b.bytes)
      differ("task " + std::to_string(i) + " is " + quote_input(a.name) + " in one and " + quote_input(b.name) + " in the other");
  }
}

std::vector<ComparisonRow> compare_timelines(const TimelineFile& p, const TimelineFile& m, bool tasks) {
  std::vector<ComparisonRow> rows;
  const auto pi = iteration_times(p), mi = iteration_times(m);
  double ps = 0, ms = 0;
  for (int i = 0; i < p.iterations; ++i) {
    rows.push_back({"iteration", -1, "", "", i, 0, pi[i], mi[i]});
    if (i > 0) {
      ps += pi[i];
      ms += mi[i];
    }
  }
  if (p.iterations >= 2) rows.push_back({"steady", -1, "", "", -1, 0, ps / (p.iterations - 1), ms / (p.iterations - 1)});
  if (!tasks) return rows;
  const auto psp = task_spans(p.timeline, p.tasks.size()), msp = task_spans(m.timeline, m.tasks.size());
  for (const TimelineTask& t : p.tasks)
    if (t.kind == TaskKind::comm && psp[t.id].ran && msp[t.id].ran)
      rows.push_back({"comm", t.id, t.name, to_string(t.op), t.iteration, t.bytes, psp[t.id].seconds(),
                      msp[t.id].seconds()});
  return rows;
}

}  // namespace scalecast
