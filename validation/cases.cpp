// Row-to-scenario cases: loads the mapped scenario with the row's single-GPU throughput as a
// --set override, checks that the row and the scenario describe the same run, builds the workload.
#include "validation/cases.h"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include "sim/scenario/run_setup.h"
#include "sim/types/strategy.h"
#include "sim/scenario/workload_builder.h"
#include "sim/zoo/zoo.h"
#include "sim/io/csv.h"
#include "sim/io/input_error.h"

namespace scalecast::validation {
namespace {

std::string where(const MeasuredRow& row) { return row.file + ":" + std::to_string(row.line); }

// The zoo model a scenario names, when it names one without a profile ("" otherwise).
std::string zoo_model_of(const std::string& scenario_path) {
  try {
    const YAML::Node model = YAML::LoadFile(scenario_path)["model"];
    if (!model.IsMap() || model["profile"] || !model["name"] || !model["name"].IsScalar())
      return "";
    return model["name"].Scalar();
  } catch (const YAML::Exception&) {
    return "";  // load_scenario reports the syntax error with its line
  }
}

Case not_expressible(std::string path, std::string reason) {
  Case c;
  c.scenario_path = std::move(path);
  c.reason = std::move(reason);
  return c;
}

}  // namespace

Case make_case(const MeasuredRow& row, const TestbedMap& testbeds, const ScenarioOverrides& cluster) {
  const std::string path = testbeds.find(row).scenario;
  const std::string model = zoo_model_of(path);
  if (!model.empty() && !zoo::has_model(model))
    return not_expressible(path, "model '" + model + "' is not in the zoo (sim/zoo registry)");
  if (!has_preset(row.method))
    return not_expressible(path, "no strategy preset for method '" + row.method + "'");
  Case c;
  c.scenario_path = path;
  ScenarioOverrides overrides = cluster;
  overrides.sets.push_back({fmt::format("gpu.single_gpu_throughput={:.17g}", row.single_gpu_throughput),
                            "the measured table"});
  c.scenario = load_scenario(path, overrides);
  const Scenario& s = c.scenario;
  if (s.model.batch_per_gpu != row.batch_per_gpu)
    throw InputError(InputKind::file, where(row) + ": batch_per_gpu: expected " +
                    std::to_string(s.model.batch_per_gpu) + " as in " + path + ", got " +
                    std::to_string(row.batch_per_gpu));
  if (row.words_per_sample > 0 && row.words_per_sample != s.model.options.seq_len)
    throw InputError(InputKind::file, where(row) + ": note: expected sentence length " +
                    std::to_string(s.model.options.seq_len) + " as in " + path + ", got " +
                    std::to_string(row.words_per_sample));
  int nodes = 0;
  try {
    nodes = nodes_for(s.cluster, row.gpus);
  } catch (const InputError& e) {
    return not_expressible(path, e.what());
  }
  if (row.nodes > 0 && row.nodes != nodes)
    throw InputError(InputKind::file, where(row) + ": nodes: expected " + std::to_string(nodes) + " (" +
                    std::to_string(row.gpus) + " GPUs on nodes of " +
                    std::to_string(s.cluster.gpus_per_node) + " in " + path + "), got " +
                    std::to_string(row.nodes));
  c.scenario.methods = {row.method};
  c.scenario.gpus = {row.gpus};
  c.workload = build_workload(c.scenario).workload;
  c.expressible = true;
  return c;
}

std::vector<Case> make_cases(const std::vector<MeasuredRow>& rows, const TestbedMap& testbeds,
                             const ScenarioOverrides& cluster) {
  std::vector<Case> cases;
  cases.reserve(rows.size());
  for (const auto& row : rows) cases.push_back(make_case(row, testbeds, cluster));
  return cases;
}

}  // namespace scalecast::validation
