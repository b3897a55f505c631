// Fuzzes a calibrated cluster file as `--cluster` reads it: the strict reader, its values put
// over a scenario (predict, recommend, collective, schedule), the hardware check, and the values
// a built schedule takes (compare --cluster).
#include "calibration/calibrated_cluster.h"
#include "fuzz/harness.h"
#include "sim/io/input_error.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace scalecast;
  static const std::string scenario = fuzz::source_dir() + "/tests/bad_inputs/valid/scenario.yaml";
  static const Scenario base = load_scenario(scenario);
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const calibration::CalibratedCluster file = calibration::parse_calibrated_cluster(text, "fuzzed.yaml");
    calibration::check_same_hardware(file, base, true);
    calibration::check_same_hardware(file, base, false);
    load_scenario(scenario, file.overrides);
    with_transport_values(base.cluster, file.overrides, file.path);
  } catch (const InputError&) {
    // refused with one line naming the file, line and key: what a bad cluster file must get
  }
  return 0;
}
