// Fuzzes a profile CSV as `scalecast predict` reads it: a scenario naming the profile, its
// workload and a few predictions (all-reduce and parameter server on two nodes).
#include "fuzz/harness.h"
#include "sim/io/input_error.h"
#include "sim/scenario/workload_builder.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace scalecast;
  const std::string profile = fuzz::scratch_file("profile.csv", std::string(reinterpret_cast<const char*>(data), size));
  const std::string scenario =
      "name: fuzzed profile\n"
      "model: {profile: " + profile + ", batch_per_gpu: 32}\n"
      "gpu: {type: v100-pcie}\n"
      "cluster: {gpus_per_node: 2, fabric: pcie3, network: {bandwidth: 10Gbps, transport: tcp}}\n"
      "methods: [wfbp-allreduce, bytescheduler-ps]\n"
      "gpus: [4]\n"
      "iterations: 3\n";
  try {
    const Scenario s = parse_scenario(scenario, fuzz::source_dir() + "/scenarios/fuzzed.yaml");
    fuzz::predict_and_write(s, build_workload(s).workload);
  } catch (const InputError&) {
    // refused with one line: what a bad profile must get
  }
  return 0;
}
