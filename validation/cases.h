// One prediction case per measured row: the testbed's scenario narrowed to the row's method and
// GPU count, at the row's single-GPU throughput, with its workload built; or why it cannot be.
#pragma once

#include <string>
#include <vector>

#include "sim/scenario/scenario.h"
#include "sim/types/workload.h"
#include "validation/measurements.h"
#include "validation/testbeds.h"

namespace scalecast::validation {

struct Case {
  bool expressible = false;
  std::string reason;  // why the model cannot express the row (when not expressible)
  std::string scenario_path;
  Scenario scenario;  // methods = {row.method}, gpus = {row.gpus}
  Workload workload;  // scaled to the row's single-GPU throughput
};

// Builds the case of one row. A row the model cannot express (a model the zoo lacks, a method
// without a preset, a GPU count the nodes cannot hold) comes back with its reason; a row that
// contradicts its scenario (batch, sentence length, published node count) throws an InputError.
// `cluster`: overrides of every scenario (a calibrated cluster file's values).
Case make_case(const MeasuredRow& row, const TestbedMap& testbeds, const ScenarioOverrides& cluster = {});
std::vector<Case> make_cases(const std::vector<MeasuredRow>& rows, const TestbedMap& testbeds,
                             const ScenarioOverrides& cluster = {});

}  // namespace scalecast::validation
