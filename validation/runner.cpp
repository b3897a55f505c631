// Runs the validation: cases from the data folder, zero-shot predictions with each scenario as
// written, then per-network fits on the calibration subset and predictions with their constants.
#include "validation/runner.h"

#include <algorithm>
#include <chrono>
#include <fmt/format.h>
#include <stdexcept>

#include "sim/backends/backend_registry.h"
#include "sim/io/input_error.h"
#include "sim/prediction/prediction.h"
#include "validation/shard_results.h"

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
    throw InputError(InputKind::file, where + e.what());  // a row too large to predict: bad input, exit code 2
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
  throw InputError("unknown mode '" + text + "' (known: zero-shot, calibrated, both)");
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

std::size_t validation_items(const ValidationOptions& o, std::size_t rows, std::size_t groups) {
  const auto runs = [&](Mode mode) { return std::find(o.modes.begin(), o.modes.end(), mode) != o.modes.end(); };
  return (runs(Mode::zero_shot) ? rows : 0) + (runs(Mode::calibrated) ? groups : 0);
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
  WorkShare whole;
  WorkShare& share = o.share ? *o.share : whole;
  const auto groups = networks(v.rows);
  share.check_total(validation_items(o, v.rows.size(), groups.size()));
  std::size_t item = 0;
  if (v.ran(Mode::zero_shot)) {
    for (std::size_t i = 0; i < v.rows.size(); ++i, ++item) {
      if (share.merging()) {
        v.zero_shot.push_back(read_row_prediction(share.result(item)));
      } else if (share.computes(item)) {
        v.zero_shot.push_back(predict_case(v.rows[i], v.cases[i], v.cases[i].scenario.cluster, *backend));
        share.record(item, row_prediction_json(v.zero_shot.back()));
      } else {
        v.zero_shot.emplace_back();
      }
    }
    progress << "validate: zero-shot done (" << static_cast<int>(seconds_since(start)) << " s)\n";
  }
  if (v.ran(Mode::zero_shot) && !share.sharded()) {
    v.collectives = validate_collectives(o.data, progress, o.cluster);
    if (o.collective_holdouts && !v.collectives.clusters.empty()) {
      v.collective_holdouts = collective_holdouts(v.collectives, o.cluster);
      progress << "validate: " << v.collective_holdouts.size() << " collective holdouts fitted ("
               << static_cast<int>(seconds_since(start)) << " s)\n";
    }
  }
  if (v.ran(Mode::calibrated)) {
    v.calibrated.assign(v.rows.size(), {});
    for (const auto& [table, network] : groups) {
      const std::size_t j = item++;
      if (share.merging()) {
        GroupFit g = plan_group(v.rows, v.cases, table, network);
        for (const auto& [row, p] : read_group(share.result(j), g, v.rows.size())) v.calibrated[row] = p;
        v.fits.push_back(std::move(g));
        continue;
      }
      if (!share.computes(j)) continue;
      progress << "validate: calibrating " << table << " / " << network << " ..." << std::flush;
      GroupFit g = fit_group(v.rows, v.cases, table, network, *backend);
      if (g.fitted) {
        progress << fmt::format(" {} rows, error {:.1f}% -> {:.1f}% (fitted rows)\n", g.rows.size(),
                                calibration::mape(g.fit.start_residuals), calibration::mape(g.fit.fitted_residuals));
      } else {
        progress << " none (" << g.reason << ")\n";
      }
      std::vector<std::pair<std::size_t, RowPrediction>> calibrated;
      for (std::size_t i = 0; i < v.rows.size(); ++i) {
        if (v.rows[i].table != table || v.rows[i].network != network || !v.cases[i].expressible)
          continue;
        const Cluster& own = v.cases[i].scenario.cluster;
        v.calibrated[i] =
            predict_case(v.rows[i], v.cases[i],
                         g.fitted ? calibration::apply_fit(g.fit, own) : own, *backend);
        calibrated.emplace_back(i, v.calibrated[i]);
      }
      share.record(j, group_json(g, calibrated));
      v.fits.push_back(std::move(g));
    }
    progress << "validate: calibrated done (" << static_cast<int>(seconds_since(start)) << " s)\n";
  }
  return v;
}

}  // namespace scalecast::validation
