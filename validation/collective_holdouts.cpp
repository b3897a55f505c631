// Held-out fits of the NCCL model's transport constants on nccl-tests outputs: the samples a
// cluster's comparison measured, refitted with every constant calibration knows, judged by size
// halves and by file.
#include "validation/collective_holdouts.h"

#include <fmt/format.h>
#include <map>
#include <tuple>

#include "calibration/measurement_files.h"
#include "calibration/transport_parameters.h"
#include "sim/report/text_table.h"

namespace scalecast::validation {
namespace {

// The overrides a run was predicted under: the cluster file's, and its stated NCCL release.
ScenarioOverrides with_version(ScenarioOverrides o, const ClusterRun& run) {
  if (!run.nccl_version.empty()) o.sets.push_back({"strategy.nccl_version=" + run.nccl_version, "clusters.csv"});
  return o;
}

// A run's sizes as fit samples, under the NCCL settings of its scenario (and release).
std::vector<calibration::FitSample> samples_of(const ClusterRun& run, const ScenarioOverrides& cluster) {
  const Scenario scenario = load_scenario(run.scenario, with_version(cluster, run));
  std::vector<calibration::FitSample> out;
  const CollectiveComparison& k = run.comparison;
  for (const ComparedSize& s : k.sizes) {
    calibration::CollectiveSample c;
    c.where = run.file + ": " + fmt::format("{:.0f}", s.bytes) + " B";
    c.file = run.file;
    c.op = run.op;
    c.nodes = k.sized.nodes;
    c.gpus_per_node = k.sized.gpus_per_node;
    c.gpus_per_thread = k.gpus_per_thread;
    c.bytes = s.bytes;
    c.time_s = s.measured_us * 1e-6;
    out.push_back(calibration::fit_sample(c, scenario.strategy.nccl));
  }
  return out;
}

CollectiveHoldout holdout(const std::string& what, const std::string& split,
                          const std::vector<calibration::FitSample>& samples, const Cluster& base,
                          const calibration::Folds& folds) {
  const auto parameters = calibration::transport_parameters(base, false);
  const auto fit = calibration::fit_carried_over(samples, base, parameters, folds);
  CollectiveHoldout h{what, split, static_cast<int>(samples.size()), calibration::mape(fit.cv.before),
                      calibration::mape(fit.cv.after), {}};
  for (std::size_t i = 0; i < parameters.size(); ++i)
    if (fit.fit.results[i].status == calibration::FitStatus::fitted)
      h.fitted.push_back(parameters[i].key + " " + calibration::scenario_value(parameters[i].quantity, fit.fit.results[i].value));
  return h;
}

}  // namespace

std::vector<CollectiveHoldout> collective_holdouts(const CollectiveValidation& v, const ScenarioOverrides& cluster) {
  std::vector<CollectiveHoldout> out;
  // Runs of one machine: the same scenario, operation and shape.
  std::map<std::tuple<std::string, int, int, int>, std::vector<const ClusterRun*>> machines;
  for (const ClusterRun& run : v.clusters) {
    if (!run.gate()) continue;
    const auto samples = samples_of(run, cluster);
    std::vector<double> bytes;
    for (const ComparedSize& s : run.comparison.sizes) bytes.push_back(s.bytes);
    out.push_back(holdout(run.cluster, "by size", samples, run.comparison.sized, calibration::folds_by_size(bytes)));
    machines[{run.scenario, static_cast<int>(run.op), run.comparison.sized.nodes, run.comparison.sized.gpus_per_node}]
        .push_back(&run);
  }
  for (const auto& [key, runs] : machines) {
    if (runs.size() < 2) continue;
    std::vector<calibration::FitSample> samples;
    std::vector<std::string> files;
    std::string what;
    for (const ClusterRun* run : runs) {
      for (auto& s : samples_of(*run, cluster)) {
        files.push_back(run->file);
        samples.push_back(std::move(s));
      }
      what += (what.empty() ? "" : " + ") + run->cluster;
    }
    out.push_back(holdout(what, "by file", samples, runs.front()->comparison.sized, calibration::folds_by_group(files)));
  }
  return out;
}

void write_holdout_summary(std::ostream& out, const std::vector<CollectiveHoldout>& holdouts) {
  if (holdouts.empty()) return;
  TextTable t({"measured", "held out", "sizes", "zero-shot", "calibrated", "constants kept"},
              {"", "", "", "MAPE %", "MAPE %", ""});
  int better = 0, worse = 0;
  for (const auto& h : holdouts) {
    std::string kept;
    for (const auto& f : h.fitted) kept += (kept.empty() ? "" : "; ") + f;
    t.add_row({h.what, h.split, std::to_string(h.samples), fmt::format("{:.1f}", h.defaults_pct),
               fmt::format("{:.1f}", h.calibrated_pct), kept.empty() ? "none (defaults)" : kept});
    better += h.calibrated_pct < h.defaults_pct - 0.05;
    worse += h.calibrated_pct > h.defaults_pct + 0.05;
  }
  out << "\ncollectives calibrated on part of a measurement and judged on the rest (by size: below the median size "
         "against the rest, each way; by file: one run of a machine against the other)\n";
  t.write(out);
  out << fmt::format("held-out error lower than zero-shot in {} of {}, higher in {}\n", better, holdouts.size(), worse);
}

}  // namespace scalecast::validation
