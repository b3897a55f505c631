// `scalecast compare PREDICTED MEASURED`: two timelines of one schedule side by side, per
// iteration and per communication task, with the error of the prediction in percent.
#include <algorithm>
#include <fmt/format.h>
#include <iostream>
#include <optional>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "calibration/calibrated_cluster.h"
#include "cli/command.h"
#include "cli/common.h"
#include "sim/backends/backend_registry.h"
#include "sim/io/input_error.h"
#include "sim/io/json_reader.h"
#include "sim/report/csv_field.h"
#include "sim/report/text_table.h"
#include "sim/report/timeline_comparison.h"
#include "sim/scenario/scenario.h"
#include "sim/formats/schedule_json.h"
#include "sim/formats/timeline_json.h"
#include "sim/backends/work_estimate.h"

namespace scalecast::cli {
namespace {

// A timeline file as is, or a schedule file predicted by `backend` within the limits, under a
// calibrated cluster file's values when one is given (a timeline, already predicted, takes none).
TimelineFile load(const std::string& path, const std::string& backend_name, const WorkLimits& limits,
                  const calibration::CalibratedCluster* calibrated = nullptr) {
  const nlohmann::json j = read_json_file(path, "a schedule or timeline file");
  const std::string format = JsonReader(j, path).require("format").choice(
      "a file format", {"scalecast-schedule", "scalecast-timeline"});
  if (format == "scalecast-timeline") {
    if (calibrated)
      throw InputError("--cluster: " + path + " is a timeline, already predicted; give the schedule it came from");
    return timeline_from_json(j, path);
  }
  Schedule s = schedule_from_json(j, path);
  if (calibrated) s.cluster = with_transport_values(s.cluster, calibrated->overrides, calibrated->path);
  const auto backend = make_backend(backend_name);
  check_work(estimate_run(s, *backend), limits, path);
  return timeline_file(s, backend->run(s));
}

void write_table(std::ostream& out, const std::vector<ComparisonRow>& rows, const TimelineFile& p,
                 const TimelineFile& m, const calibration::CalibratedCluster* calibrated) {
  out << "predicted: " << p.timeline.backend << ", measured: " << m.timeline.backend << " (" << m.model << ", "
      << m.method << ", " << m.gpus << " GPUs); error = (predicted - measured) / measured\n";
  if (calibrated)
    out << "predicted with the calibrated cluster file " << calibrated->path << ": "
        << calibration::joined_values(calibrated->values) << '\n';
  out << '\n';
  TextTable it({"iteration", "predicted", "measured", "error"}, {"", "s", "s", "%"});
  for (const ComparisonRow& r : rows)
    if (r.kind != "comm")
      it.add_row({r.kind == "steady" ? "steady" : std::to_string(r.iteration), fmt::format("{:.4f}", r.predicted_s),
                  fmt::format("{:.4f}", r.measured_s), fmt::format("{:+.1f}", r.error_pct())});
  it.write(out);
  TextTable ct({"task", "name", "iteration", "op", "bytes", "predicted", "measured", "error"},
               {"", "", "", "", "B", "ms", "ms", "%"});
  std::vector<double> errors;
  double psum = 0, msum = 0;
  for (const ComparisonRow& r : rows) {
    if (r.kind != "comm") continue;
    ct.add_row({std::to_string(r.task), r.name, std::to_string(r.iteration), r.op,
                fmt::format("{:.0f}", r.bytes), fmt::format("{:.3f}", r.predicted_s * 1e3),
                fmt::format("{:.3f}", r.measured_s * 1e3), fmt::format("{:+.1f}", r.error_pct())});
    errors.push_back(std::abs(r.error_pct()));
    psum += r.predicted_s;
    msum += r.measured_s;
  }
  if (errors.empty()) return;
  out << '\n';
  ct.write(out);
  std::nth_element(errors.begin(), errors.begin() + errors.size() / 2, errors.end());
  out << "\ncommunication tasks: " << errors.size() << ", summed time predicted "
      << fmt::format("{:.4f}", psum) << " s, measured " << fmt::format("{:.4f}", msum)
      << " s; median |error| " << fmt::format("{:.1f}", errors[errors.size() / 2]) << " %\n";
}

// One row per iteration and task; cluster_file names the calibrated file the prediction used.
void write_csv(std::ostream& out, const std::vector<ComparisonRow>& rows, const std::string& cluster_file) {
  out << "kind,task,name,iteration,op,bytes,predicted_s,measured_s,error_pct,cluster_file\n";
  const std::string file = csv_field(cluster_file);
  for (const ComparisonRow& r : rows)
    out << r.kind << ',' << (r.task >= 0 ? std::to_string(r.task) : "") << ',' << csv_field(r.name) << ','
        << (r.iteration >= 0 ? std::to_string(r.iteration) : "") << ',' << r.op << ','
        << fmt::format("{:.0f}", r.bytes) << ',' << fmt::format("{:.9f}", r.predicted_s) << ','
        << fmt::format("{:.9f}", r.measured_s) << ',' << fmt::format("{:.3f}", r.error_pct()) << ',' << file
        << '\n';
}

int run(const std::vector<std::string>& args) {
  po::options_description opts("options");
  std::string predicted_path, measured_path, backend, format, output, cluster_file;
  LimitOptions limits;
  opts.add_options()
      ("predicted", po::value(&predicted_path)->required(), "timeline JSON, or the schedule JSON to predict")
      ("measured", po::value(&measured_path)->required(), "timeline JSON (scalecast execute -o)")
      ("backend,b", po::value(&backend)->default_value("analytical"), "predicts PREDICTED when it is a schedule")
      ("format,f", po::value(&format)->default_value("table"), "table or csv")
      ("iterations-only", po::bool_switch(), "leave out the per-task rows")
      ("cluster", po::value(&cluster_file), "a calibrated cluster file (scalecast calibrate -o): its "
                                            "transport values override those PREDICTED was built with")
      ("output,o", po::value(&output), "write to FILE instead of stdout");
  add_limit_options(opts, limits);
  po::positional_options_description pos;
  pos.add("predicted", 1).add("measured", 1);
  return guarded("compare", [&] {
    po::variables_map vm;
    if (parse_options("compare", "PREDICTED.json MEASURED.json [--cluster cluster.yaml] [--format table|csv]", opts,
                      pos, args, vm))
      return 0;
    check_format(format, {"table", "csv"});
    const WorkLimits work = limits.limits();
    std::optional<calibration::CalibratedCluster> calibrated;
    if (!cluster_file.empty()) calibrated = calibration::read_calibrated_cluster(cluster_file);
    const auto* cal = calibrated ? &*calibrated : nullptr;
    const TimelineFile p = load(predicted_path, backend, work, cal), m = load(measured_path, backend, work);
    check_same_schedule(p, m, predicted_path, measured_path);
    const auto rows = compare_timelines(p, m, !vm["iterations-only"].as<bool>());
    write_output(output, [&](std::ostream& o) {
      if (format == "csv") write_csv(o, rows, cluster_file);
      else write_table(o, rows, p, m, cal);
    });
    return 0;
  });
}

const Registration reg{"compare", "compare a predicted and a measured timeline of one schedule", run};

}  // namespace
}  // namespace scalecast::cli
