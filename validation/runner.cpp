// Runs the validation: cases from the data folder, zero-shot predictions with each scenario as
// written, then per-network fits on the calibration subset and predictions with their constants.
#include "validation/runner.h"

#include <chrono>
#include <fmt/format.h>
#include <stdexcept>

#include "sim/prediction.h"
#include "validation/data_error.h"

namespace scalecast::validation {
namespace {

// One row through the backend; a failure names the row it happened on.
RowPrediction predict_case(const MeasuredRow& row, const Case& c, const Cluster& cluster,
                           const Backend& backend) {
  if (!c.expressible) return {};
  Scenario s = c.scenario;
  s.cluster = cluster;
  const std::string where = row.file + ":" + std::to_string(row.line) + " (" + row_label(row) + ", " +
                            backend.name() + "): ";
  try {
    return {true,
            predict(s, c.workload, s.methods.front(), s.gpus.front(), backend).row.throughput};
  } catch (const InputError& e) {
    throw DataError(where + e.what());  // a row too large to predict: bad input, exit code 2
  } catch (const std::exception& e) {
    throw std::runtime_error(where + e.what());
  }
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

std::string to_string(Mode mode) { return mode == Mode::zero_shot ? "zero-shot" : "calibrated"; }

Mode parse_mode(const std::string& text) {
  if (text == "zero-shot") return Mode::zero_shot;
  if (text == "calibrated") return Mode::calibrated;
  throw std::invalid_argument("unknown mode '" + text + "' (known: zero-shot, calibrated, both)");
}

bool ValidationResult::ran(Mode mode) const {
  for (Mode m : modes)
    if (m == mode) return true;
  return false;
}

const std::vector<RowPrediction>& ValidationResult::predictions(Mode mode) const {
  return mode == Mode::zero_shot ? zero_shot : calibrated;
}

std::vector<std::size_t> ValidationResult::evaluated_rows(Mode mode, bool held_out_only) const {
  std::vector<std::size_t> out;
  if (!ran(mode)) return out;
  const bool held_out = held_out_only || mode == Mode::calibrated;
  for (std::size_t i = 0; i < rows.size(); ++i)
    if (predictions(mode)[i].predicted && !(held_out && calibration_row[i])) out.push_back(i);
  return out;
}

std::vector<Point> ValidationResult::points(Mode mode,
                                            const std::vector<std::size_t>& which) const {
  std::vector<Point> out;
  for (std::size_t i : which) {
    const MeasuredRow& r = rows[i];
    out.push_back({r.table, r.network, r.model, r.method, r.gpus, r.throughput, r.stddev,
                   predictions(mode)[i].throughput});
  }
  return out;
}

std::vector<std::size_t> ValidationResult::not_expressible() const {
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < cases.size(); ++i)
    if (!cases[i].expressible) out.push_back(i);
  return out;
}

ValidationResult run_validation(const ValidationOptions& o, std::ostream& progress) {
  const auto start = std::chrono::steady_clock::now();
  const auto backend = make_backend(o.backend);
  ValidationResult v;
  v.backend = backend->name();
  v.modes = o.modes;
  v.rows = read_measurements(o.data);
  v.cluster_file = o.cluster_file;
  v.cluster_values = o.cluster_values;
  v.cases = make_cases(v.rows, TestbedMap::read(o.data), o.cluster);
  for (const auto& r : v.rows) v.calibration_row.push_back(is_calibration_row(r));
  progress << "validate: " << v.rows.size() << " measured rows, " << v.not_expressible().size()
           << " not expressible, backend " << v.backend << '\n';
  if (v.ran(Mode::zero_shot)) {
    for (std::size_t i = 0; i < v.rows.size(); ++i)
      v.zero_shot.push_back(
          predict_case(v.rows[i], v.cases[i], v.cases[i].scenario.cluster, *backend));
    progress << "validate: zero-shot done (" << static_cast<int>(seconds_since(start)) << " s)\n";
    v.collectives = validate_collectives(o.data, progress, o.cluster);
    if (o.collective_holdouts && !v.collectives.clusters.empty()) {
      v.collective_holdouts = collective_holdouts(v.collectives, o.cluster);
      progress << "validate: " << v.collective_holdouts.size() << " collective holdouts fitted ("
               << static_cast<int>(seconds_since(start)) << " s)\n";
    }
  }
  if (v.ran(Mode::calibrated)) {
    v.calibrated.assign(v.rows.size(), {});
    for (const auto& [table, network] : networks(v.rows)) {
      progress << "validate: calibrating " << table << " / " << network << " ..." << std::flush;
      GroupFit g = fit_group(v.rows, v.cases, table, network, *backend);
      if (g.fitted) {
        progress << fmt::format(" {} rows, error {:.1f}% -> {:.1f}% (fitted rows)\n", g.rows.size(),
                                calibration::mape(g.fit.start_residuals), calibration::mape(g.fit.fitted_residuals));
      } else {
        progress << " none (" << g.reason << ")\n";
      }
      for (std::size_t i = 0; i < v.rows.size(); ++i) {
        if (v.rows[i].table != table || v.rows[i].network != network || !v.cases[i].expressible)
          continue;
        const Cluster& own = v.cases[i].scenario.cluster;
        v.calibrated[i] =
            predict_case(v.rows[i], v.cases[i],
                         g.fitted ? calibration::apply_fit(g.fit, own) : own, *backend);
      }
      v.fits.push_back(std::move(g));
    }
    progress << "validate: calibrated done (" << static_cast<int>(seconds_since(start)) << " s)\n";
  }
  return v;
}

}  // namespace scalecast::validation
