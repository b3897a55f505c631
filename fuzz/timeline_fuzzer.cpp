// Fuzzes a timeline file as `scalecast compare` reads it: the strict reader, then the
// comparison of the timeline with itself (iterations, steady state, per-task spans).
#include "fuzz/harness.h"
#include "sim/io/input_error.h"
#include "sim/io/json_reader.h"
#include "sim/report/timeline_comparison.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace scalecast;
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const TimelineFile f = timeline_from_json(parse_json(text, "fuzzed.json"), "fuzzed.json");
    check_same_schedule(f, f, "predicted.json", "measured.json");
    compare_timelines(f, f, true);
  } catch (const InputError&) {
    // refused with one line: what a bad timeline must get
  }
  return 0;
}
