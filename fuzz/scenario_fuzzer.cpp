// Fuzzes what `scalecast predict SCENARIO --set ...` does: the scenario YAML (the input up to its
// first NUL byte) with --set overrides (the parts after it), the workload, and a few predictions.
#include "fuzz/harness.h"
#include "sim/io/input_error.h"
#include "sim/scenario/workload_builder.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace scalecast;
  const std::vector<std::string> input = fuzz::parts(data, size);
  const std::vector<std::string> overrides(input.begin() + 1, input.end());
  try {
    const Scenario s = parse_scenario(input[0], fuzz::source_dir() + "/scenarios/fuzzed.yaml", overrides);
    fuzz::predict_and_write(s, build_workload(s).workload);
  } catch (const InputError&) {
    // refused with one line: what a bad scenario must get
  }
  return 0;
}
