// Fuzzes a schedule file as `scalecast compare` and `scalecast execute` read it: the strict
// reader, an analytical prediction within small limits, the comparison, and (for small worlds)
// every rank's plan, which `execute` makes before any traffic.
#include "executor/rank_plan.h"
#include "fuzz/harness.h"
#include "sim/backends/analytical/analytical_backend.h"
#include "sim/collectives/expansion.h"
#include "sim/io/input_error.h"
#include "sim/io/json_reader.h"
#include "sim/report/timeline_comparison.h"
#include "sim/formats/schedule_json.h"

namespace {

// Transfers of every rank's plan together; plans are made only where they stay small.
double transfers(const scalecast::Schedule& s) {
  double n = 0;
  for (const scalecast::Task& t : s.tasks)
    if (t.kind == scalecast::TaskKind::comm) n += scalecast::collectives::transfer_count(s, t);
  return n;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace scalecast;
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const Schedule s = schedule_from_json(parse_json(text, "fuzzed.json"), "fuzzed.json");
    const AnalyticalBackend backend;
    check_work(estimate_run(s, backend), fuzz::small_limits(), "fuzzed.json");
    const TimelineFile f = timeline_file(s, backend.run(s));
    check_same_schedule(f, f, "predicted.json", "measured.json");
    compare_timelines(f, f, true);
    if (executor::world_size(s) <= 8 && transfers(s) <= 2e4)
      for (int rank = 0; rank < executor::world_size(s); ++rank) executor::plan_rank(s, rank);
  } catch (const InputError&) {
    // refused with one line: what a bad schedule must get
  }
  return 0;
}
