// `scalecast calibrate MEASUREMENTS... --scenario BASE -o cluster.yaml`: fits the transport of a
// cluster to what was measured on it (sweeps, nccl-tests output, timelines, throughput tables),
// reports every constant with its interval or why it kept its default, cross-validates, and
// writes the calibrated cluster file that --cluster reads.
#include <cmath>
#include <filesystem>
#include <fmt/format.h>
#include <iostream>
#include <memory>

#include "calibration/calibrated_cluster.h"
#include "calibration/measurement_files.h"
#include "cli/command.h"
#include "cli/common.h"
#include "sim/report/text_table.h"
#include "validation/calibration_split.h"
#include "validation/testbeds.h"

namespace scalecast::cli {
namespace {

// What the measured throughput tables bring: their rows and cases, kept alive for the samples.
struct Tables {
  std::vector<validation::MeasuredRow> rows;
  std::vector<validation::Case> cases;
};

void print_parameters(std::ostream& out, const calibration::TransportFit& f) {
  TextTable t({"constant", "default", "fitted", "95% interval", "status"}, {"", "", "", "", ""});
  for (std::size_t i = 0; i < f.parameters.size(); ++i) {
    const auto& p = f.parameters[i];
    const auto& r = f.results[i];
    const bool moved = r.status == calibration::FitStatus::fitted;
    t.add_row({p.key, calibration::scenario_value(p.quantity, r.start), calibration::scenario_value(p.quantity, r.value),
               moved ? calibration::scenario_value(p.quantity, r.low) + " .. " +
                           calibration::scenario_value(p.quantity, r.high)
                     : "-",
               calibration::to_string(r.status)});
  }
  t.write(out);
}

int run(const std::vector<std::string>& args) {
  po::options_description opts("options");
  std::vector<std::string> files;
  std::string scenario_path, output, backend_name, network;
  int folds = 5;
  opts.add_options()
      ("measurements", po::value(&files)->required(), "measurement files (format told from the content)")
      ("scenario", po::value(&scenario_path), "scenario of the measured cluster: its constants are the defaults "
                                              "(required for sweeps, nccl-tests output and timelines)")
      ("network,n", po::value(&network), "throughput tables: use the rows of this network only")
      ("folds", po::value(&folds)->default_value(5), "cross-validation folds (2 or more) where the measurements do not name three or more workloads (then one fold per workload)")
      ("output,o", po::value(&output), "write the calibrated cluster file to FILE instead of stdout")
      ("backend,b", po::value(&backend_name)->default_value("analytical"), "predicts throughput rows");
  po::positional_options_description pos;
  pos.add("measurements", -1);
  return guarded("calibrate", [&] {
    po::variables_map vm;
    if (parse_options("calibrate", "MEASUREMENTS... --scenario BASE.yaml [-o cluster.yaml]", opts, pos, args, vm))
      return 0;
    if (folds < 2) throw std::invalid_argument("--folds must be 2 or more");
    const auto backend = make_backend(backend_name);
    std::unique_ptr<Scenario> base;
    if (!scenario_path.empty()) base = std::make_unique<Scenario>(load_scenario(scenario_path));
    std::vector<calibration::CollectiveSample> collectives;
    auto tables = std::make_unique<Tables>();
    for (const std::string& f : files) {
      const auto format = calibration::detect_format(f);
      std::cerr << "calibrate: " << f << ": " << to_string(format) << '\n';
      if (format != calibration::MeasurementFormat::throughput_table) {
        for (auto& s : calibration::read_collective_samples(f, format)) collectives.push_back(std::move(s));
        continue;
      }
      const std::string folder = std::filesystem::path(f).parent_path().string();
      const auto testbeds = validation::TestbedMap::read(folder.empty() ? "." : folder);
      std::vector<validation::MeasuredRow> rows;
      for (auto& r : validation::read_measured_table(f))
        if (network.empty() || r.network == network) rows.push_back(std::move(r));
      for (auto& c : validation::make_cases(rows, testbeds)) tables->cases.push_back(std::move(c));
      for (auto& r : rows) tables->rows.push_back(std::move(r));
    }
    if (!collectives.empty() && !base)
      throw std::invalid_argument("--scenario BASE.yaml is needed: sweeps, nccl-tests output and timelines say "
                                  "nothing of the hardware they ran on");
    if (!base && !tables->cases.empty()) base = std::make_unique<Scenario>(tables->cases.front().scenario);
    if (!base)
      throw std::invalid_argument("no measurements to calibrate with" +
                                  (network.empty() ? std::string() : " on network '" + network + "'"));
    bool servers = false;
    for (const auto& r : tables->rows) servers = servers || r.method.find("-ps") != std::string::npos;
    const auto parameters = calibration::transport_parameters(base->cluster, servers);
    std::vector<calibration::FitSample> samples;
    for (const auto& c : collectives) samples.push_back(calibration::fit_sample(c));
    for (std::size_t i = 0; i < tables->rows.size(); ++i)
      if (tables->cases[i].expressible)
        samples.push_back(validation::throughput_sample(tables->rows[i], tables->cases[i], parameters, *backend));
    std::cerr << "calibrate: fitting " << parameters.size() << " constants to " << samples.size()
              << " measurements ...\n";
    calibration::CalibrationRecord rec;
    rec.scenario = scenario_path.empty() ? base->path : scenario_path;
    rec.measurements = files;
    const auto split = calibration::make_folds(samples, folds);
    const std::string fold_words =
        split.by_workload ? fmt::format("{} folds, one per workload", split.count) : fmt::format("{} folds", split.count);
    rec.fit = calibration::fit_carried_over(samples, base->cluster, parameters, split).fit;
    std::cerr << "calibrate: cross-validating (" << fold_words << ") ...\n";
    rec.cv = calibration::cross_validate(samples, base->cluster, parameters, split);
    print_parameters(std::cerr, rec.fit);
    const double before = calibration::mape(rec.cv.before), after = calibration::mape(rec.cv.after);
    std::cerr << "\nmean error of the fitted measurements: "
              << fmt::format("{:.1f}%", calibration::mape(rec.fit.start_residuals)) << " with the defaults, "
              << fmt::format("{:.1f}%", calibration::mape(rec.fit.fitted_residuals)) << " calibrated\n"
              << "held out (cross-validation, " << fold_words << "): " << fmt::format("{:.1f}%", before)
              << " with the defaults, " << fmt::format("{:.1f}%", after) << " calibrated\n";
    if (after > before)
      std::cerr << "WARNING: calibrated predictions of held-out measurements are worse than the defaults' ("
                << fmt::format("{:.1f}%", before) << " -> " << fmt::format("{:.1f}%", after)
                << "): the measurements do not support these constants; check them before you use the file\n";
    write_output(output, [&](std::ostream& o) { calibration::write_calibrated_cluster(o, rec); });
    return 0;
  });
}

const Registration reg{"calibrate",
                       "fit a cluster's transport to measurements; write the calibrated cluster file (--cluster)",
                       run};

}  // namespace
}  // namespace scalecast::cli
