// `scalecast calibrate MEASUREMENTS... --scenario BASE -o cluster.yaml`: fits the transport of a
// cluster to what was measured on it (sweeps, nccl-tests output, timelines, throughput tables),
// reports every constant with its interval or why it kept its default, cross-validates, and
// writes the calibrated cluster file that --cluster reads.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fmt/format.h>
#include <iostream>
#include <memory>

#include "calibration/calibrated_cluster.h"
#include "calibration/measurement_files.h"
#include "cli/command.h"
#include "cli/common.h"
#include "sim/backends/backend_registry.h"
#include "sim/io/input_error.h"
#include "sim/io/ranges.h"
#include "sim/report/csv_field.h"
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

// One row per measurement: measured, and predicted with the defaults, by the calibration, and by
// the calibration run without it (cross-validation), each with its error.
void write_residuals(std::ostream& out, const std::vector<calibration::FitSample>& samples,
                     const calibration::CalibrationRecord& rec) {
  out << "measurement,workload,measured_s,default_s,default_error_pct,calibrated_s,calibrated_error_pct,"
         "held_out_s,held_out_error_pct\n";
  auto cells = [](double measured, double log_ratio) {
    return fmt::format("{:.6g},{:.2f}", measured * std::exp(log_ratio), 100 * std::expm1(log_ratio));
  };
  for (std::size_t i = 0; i < samples.size(); ++i) {
    const double m = samples[i].measured_s;
    out << csv_field(samples[i].where) << ',' << csv_field(samples[i].workload) << ',' << fmt::format("{:.6g}", m)
        << ',' << cells(m, rec.fit.start_residuals[i]) << ',' << cells(m, rec.fit.fitted_residuals[i]) << ','
        << cells(m, rec.cv.after[i]) << '\n';
  }
}

// Collectives held out by what dealt folds mix: the sizes below the median against the rest, and
// each measurement file whole; each line gives the held-out error with the defaults and with the
// constants that carry over across those folds.
void print_structured_holdouts(std::ostream& out, const std::vector<calibration::FitSample>& samples,
                               const std::vector<calibration::CollectiveSample>& collectives, const Scenario& base,
                               const std::vector<calibration::Parameter>& parameters) {
  std::vector<double> bytes;
  std::vector<std::string> files;
  for (const auto& c : collectives) {
    bytes.push_back(c.bytes);
    files.push_back(c.file);
  }
  std::vector<std::pair<std::string, calibration::Folds>> splits = {
      {"by size (below the median size against the rest)", calibration::folds_by_size(bytes)}};
  const calibration::Folds by_file = calibration::folds_by_group(files);
  if (by_file.count >= 2) splits.push_back({"by file (" + std::to_string(by_file.count) + " files, one held out at a time)", by_file});
  for (const auto& [what, folds] : splits) {
    std::cerr << "calibrate: holding out " << what << " ...\n";
    const auto held = calibration::fit_carried_over(samples, base.cluster, parameters, folds);
    out << fmt::format("held out {}: {:.1f}% with the defaults, {:.1f}% calibrated\n", what,
                       calibration::mape(held.cv.before), calibration::mape(held.cv.after));
  }
}

int run(const std::vector<std::string>& args) {
  po::options_description opts("options");
  std::vector<std::string> files;
  std::string scenario_path, output, residuals, backend_name, network;
  int folds = 5, gpus = 0;
  long long max_measurements = 100000;
  opts.add_options()
      ("measurements", po::value(&files)->required(), "measurement files (format told from the content)")
      ("scenario", po::value(&scenario_path), "scenario of the measured cluster: its constants are the defaults "
                                              "(required for sweeps, nccl-tests output and timelines)")
      ("network,n", po::value(&network), "throughput tables: use the rows of this network only")
      ("gpus", po::value(&gpus), "nccl-tests output without its '# Rank' lines ran on this many GPUs of the scenario's "
                                 "cluster")
      ("folds", po::value(&folds)->default_value(5),
       "cross-validation folds (2 or more); measurements of three or more workloads get one fold per workload")
      ("output,o", po::value(&output), "write the calibrated cluster file to FILE instead of stdout")
      ("residuals", po::value(&residuals), "write each measurement, measured and predicted (defaults, calibrated, "
                                           "held out), to FILE as CSV")
      ("backend,b", po::value(&backend_name)->default_value("analytical"), "predicts throughput rows")
      ("max-measurements", po::value(&max_measurements)->default_value(max_measurements),
       "refuse more measurements than this (each is predicted again at every step of the fit)");
  po::positional_options_description pos;
  pos.add("measurements", -1);
  return guarded("calibrate", [&] {
    po::variables_map vm;
    if (parse_options("calibrate", "MEASUREMENTS... --scenario BASE.yaml [-o cluster.yaml]", opts, pos, args, vm, nullptr,
                      {"output", "residuals"}))
      return 0;
    if (folds < 2) throw InputError("--folds must be 2 or more");
    if (max_measurements < 1)
      throw InputError("--max-measurements: expected 1 or more, got " + std::to_string(max_measurements));
    if (vm.count("gpus") && (gpus < 2 || gpus > ranges::kMaxGpus))
      throw InputError("--gpus: expected 2 to " + std::to_string(ranges::kMaxGpus) + " GPUs, got " +
                       std::to_string(gpus));
    const auto backend = make_backend(backend_name);
    std::unique_ptr<Scenario> base;
    if (!scenario_path.empty()) base = std::make_unique<Scenario>(load_scenario(scenario_path));
    std::vector<calibration::CollectiveSample> collectives;
    auto tables = std::make_unique<Tables>();
    // Progress is printed once every input is read and the fit is known to run, so that a refusal
    // is the one line on stderr.
    std::string progress;
    for (const std::string& f : files) {
      const auto format = calibration::detect_format(f);
      progress += "calibrate: " + f + ": " + to_string(format) + "\n";
      if (format != calibration::MeasurementFormat::throughput_table) {
        for (auto& s : calibration::read_collective_samples(f, format, base ? &base->cluster : nullptr, gpus))
          collectives.push_back(std::move(s));
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
      throw InputError("--scenario BASE.yaml is needed: sweeps, nccl-tests output and timelines say "
                       "nothing of the hardware they ran on");
    if (!base && !tables->cases.empty()) base = std::make_unique<Scenario>(tables->cases.front().scenario);
    if (!base)
      throw InputError("no measurements to calibrate with" +
                       (network.empty() ? std::string() : " on network '" + network + "'"));
    bool servers = false;
    for (const auto& r : tables->rows) servers = servers || r.method.find("-ps") != std::string::npos;
    const auto parameters = calibration::transport_parameters(base->cluster, servers);
    const std::size_t measured = collectives.size() + tables->rows.size();
    std::string sources;
    for (const auto& f : files) sources += (sources.empty() ? "" : ", ") + f;
    if (measured > static_cast<std::size_t>(max_measurements))
      throw InputError(fmt::format("{}: {} measurements (0-byte rows left out), more than --max-measurements {}: each "
                                   "is predicted again at every step of the fit; give fewer sizes or files, or raise it",
                                   sources, measured, max_measurements));
    std::vector<calibration::FitSample> samples;
    for (const auto& c : collectives) samples.push_back(calibration::fit_sample(c, base->strategy.nccl));
    for (std::size_t i = 0; i < tables->rows.size(); ++i)
      if (tables->cases[i].expressible)
        samples.push_back(validation::throughput_sample(tables->rows[i], tables->cases[i], parameters, *backend));
    // Fewer than three measurements cannot hold one out and judge the rest: no spread, no fit.
    if (samples.size() < 3)
      throw InputError(fmt::format("{}: {} measurement{} (0-byte rows and rows no scenario expresses left out): "
                                   "expected at least 3 to fit and cross-validate any of the {} constants; every "
                                   "constant is held at the scenario's value, so no cluster file is written",
                                   sources, samples.size(), samples.size() == 1 ? "" : "s", parameters.size()));
    progress += fmt::format("calibrate: fitting {} constants to {} measurements ...\n", parameters.size(), samples.size());
    // With no more measurements than constants the fit may be refused below: its progress waits,
    // so that the refusal is the one line on stderr (such a fit is quick).
    const bool may_refuse = samples.size() <= parameters.size();
    const auto report = [&] {
      std::cerr << progress;
      progress.clear();
    };
    if (!may_refuse) report();
    calibration::CalibrationRecord rec;
    rec.scenario = scenario_path.empty() ? base->path : scenario_path;
    rec.hardware = base->cluster;
    rec.measurements = files;
    const auto split = calibration::make_folds(samples, folds);
    const std::string fold_words =
        split.by_workload ? fmt::format("{} folds, one per workload", split.count) : fmt::format("{} folds", split.count);
    progress += "calibrate: keeping what carries over (cross-validation, " + fold_words + ") ...\n";
    if (!may_refuse) report();
    auto carried = calibration::fit_carried_over(samples, base->cluster, parameters, split);
    // No constant is fitted from no more measurements than constants fitted: the fit would pass
    // through every point, and its spread would be as narrow as nothing measured says it is.
    std::string moved;
    std::size_t fitted = 0;
    for (std::size_t i = 0; i < carried.fit.results.size(); ++i)
      if (carried.fit.results[i].status == calibration::FitStatus::fitted) {
        moved += (moved.empty() ? "" : ", ") + carried.fit.parameters[i].key;
        ++fitted;
      }
    if (fitted > 0 && samples.size() <= fitted)
      throw InputError(fmt::format("{}: {} measurements cannot fit the {} constants they move ({}): expected more "
                                   "measurements than constants; every constant is held at the scenario's value, so "
                                   "no cluster file is written",
                                   sources, samples.size(), fitted, moved));
    report();
    rec.fit = std::move(carried.fit);
    rec.cv = std::move(carried.cv);
    print_parameters(std::cerr, rec.fit);
    const double before = calibration::mape(rec.cv.before), after = calibration::mape(rec.cv.after);
    std::cerr << "\nmean error of the fitted measurements: "
              << fmt::format("{:.1f}%", calibration::mape(rec.fit.start_residuals)) << " with the defaults, "
              << fmt::format("{:.1f}%", calibration::mape(rec.fit.fitted_residuals)) << " calibrated\n"
              << "held out (cross-validation, " << fold_words << "): " << fmt::format("{:.1f}%", before)
              << " with the defaults, " << fmt::format("{:.1f}%", after) << " calibrated\n";
    if (tables->rows.empty()) print_structured_holdouts(std::cerr, samples, collectives, *base, parameters);
    const bool any = std::any_of(rec.fit.results.begin(), rec.fit.results.end(), [](const auto& r) {
      return r.status == calibration::FitStatus::fitted;
    });
    if (!any)
      std::cerr << "no constant predicts held-out measurements better than the defaults: the file keeps the "
                   "scenario's values\n";
    OutputFiles out_files;
    if (!residuals.empty())
      write_output(out_files, residuals, [&](std::ostream& o) { write_residuals(o, samples, rec); });
    write_output(out_files, output, [&](std::ostream& o) { calibration::write_calibrated_cluster(o, rec); });
    out_files.commit();
    return 0;
  });
}

const Registration reg{"calibrate",
                       "fit a cluster's transport to measurements; write the calibrated cluster file (--cluster)",
                       run};

}  // namespace
}  // namespace scalecast::cli
