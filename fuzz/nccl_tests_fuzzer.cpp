// Fuzzes nccl-tests output as `calibrate` and `collective --compare` read it: whether it looks
// like one, the strict reader, each run's samples placed on a cluster scenario's nodes (as with
// --gpus 8), and the first samples predicted through NCCL's model as the fit predicts them.
#include <sstream>

#include "calibration/measurement_files.h"
#include "calibration/readers/nccl_tests_output.h"
#include "fuzz/harness.h"
#include "sim/io/input_error.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace scalecast;
  static const Scenario base = load_scenario(fuzz::source_dir() + "/scenarios/cluster-h100-no-nvls.yaml");
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    calibration::looks_like_nccl_tests(text);
    std::istringstream in(text);
    for (const auto& run : calibration::read_nccl_tests(in, "fuzzed.all_reduce_perf.txt")) {
      const auto samples = calibration::nccl_tests_samples(run, &base.cluster, run.ranks > 0 ? 0 : 8);
      for (std::size_t i = 0; i < samples.size() && i < 4; ++i)
        calibration::fit_sample(samples[i], base.strategy.nccl).predict_s(base.cluster);
    }
  } catch (const InputError&) {
    // refused with one line naming the file and line: what bad nccl-tests output must get
  }
  return 0;
}
