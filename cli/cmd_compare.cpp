// `scalecast compare PREDICTED MEASURED`: two timelines of one schedule side by side, per
// iteration and per communication task, with the error of the prediction in percent.
#include <algorithm>
#include <fstream>
#include <iostream>
#include <optional>

#include <nlohmann/json.hpp>

#include "cli/command.h"
#include "cli/common.h"
#include "sim/backend.h"
#include "sim/report/text_table.h"
#include "sim/schedule_json.h"
#include "sim/timeline_json.h"

namespace scalecast::cli {
namespace {

struct Row {
  std::string kind;  // iteration, steady, comm
  int task = -1;
  std::string name, op;
  int iteration = -1;
  double bytes = 0, predicted_s = 0, measured_s = 0;
  double error_pct() const { return measured_s > 0 ? 100 * (predicted_s - measured_s) / measured_s : 0; }
};

// A timeline file as is, or a schedule file predicted by `backend`.
TimelineFile load(const std::string& path, const std::string& backend) {
  std::ifstream in(path);
  if (!in) throw TimelineError(path + ": cannot open the file");
  std::string format;
  try {
    format = nlohmann::json::parse(in).value("format", "");
  } catch (const nlohmann::json::exception& e) {
    throw TimelineError(path + ": not valid JSON (" + std::string(e.what()) + ")");
  }
  if (format != "scalecast-schedule") return read_timeline_json(path);
  const Schedule s = read_schedule_file(path);
  return timeline_file(s, make_backend(backend)->run(s));
}

// Iteration i takes from the end of iteration i-1 (the first one: from the first event) to its
// own end, the latest end of any of its tasks on any rank.
std::vector<double> iteration_times(const TimelineFile& f) {
  std::vector<int> iteration_of;
  for (const TimelineTask& t : f.tasks) iteration_of.push_back(t.iteration);
  const IterationSpans spans = iteration_spans(f.timeline, iteration_of, f.iterations);
  std::vector<double> times;
  for (int i = 0; i < f.iterations; ++i)
    times.push_back(spans.ends_s[i] - (i == 0 ? spans.first_start_s : spans.ends_s[i - 1]));
  return times;
}

void check_same_schedule(const TimelineFile& p, const TimelineFile& m, const std::string& pp, const std::string& mp) {
  auto differ = [&](const std::string& what) {
    throw TimelineError(pp + " and " + mp + " are timelines of different schedules: " + what);
  };
  if (p.gpus != m.gpus) differ(std::to_string(p.gpus) + " vs " + std::to_string(m.gpus) + " GPUs");
  if (p.iterations != m.iterations) differ("different iteration counts");
  if (p.tasks.size() != m.tasks.size())
    differ(std::to_string(p.tasks.size()) + " vs " + std::to_string(m.tasks.size()) + " tasks");
  for (std::size_t i = 0; i < p.tasks.size(); ++i) {
    const TimelineTask &a = p.tasks[i], &b = m.tasks[i];
    if (a.kind != b.kind || a.name != b.name || a.iteration != b.iteration || a.op != b.op || a.bytes != b.bytes)
      differ("task " + std::to_string(i) + " is '" + a.name + "' in one and '" + b.name + "' in the other");
  }
}

std::vector<Row> compare(const TimelineFile& p, const TimelineFile& m, bool tasks) {
  std::vector<Row> rows;
  const auto pi = iteration_times(p), mi = iteration_times(m);
  double ps = 0, ms = 0;
  for (int i = 0; i < p.iterations; ++i) {
    rows.push_back({"iteration", -1, "", "", i, 0, pi[i], mi[i]});
    if (i > 0) {
      ps += pi[i];
      ms += mi[i];
    }
  }
  if (p.iterations >= 2) rows.push_back({"steady", -1, "", "", -1, 0, ps / (p.iterations - 1), ms / (p.iterations - 1)});
  if (!tasks) return rows;
  const auto psp = task_spans(p.timeline, p.tasks.size()), msp = task_spans(m.timeline, m.tasks.size());
  for (const TimelineTask& t : p.tasks)
    if (t.kind == TaskKind::comm && psp[t.id].ran && msp[t.id].ran)
      rows.push_back({"comm", t.id, t.name, to_string(t.op), t.iteration, t.bytes, psp[t.id].seconds(),
                      msp[t.id].seconds()});
  return rows;
}

void write_table(std::ostream& out, const std::vector<Row>& rows, const TimelineFile& p, const TimelineFile& m) {
  out << "predicted: " << p.timeline.backend << ", measured: " << m.timeline.backend << " (" << m.model << ", "
      << m.method << ", " << m.gpus << " GPUs); error = (predicted - measured) / measured\n\n";
  TextTable it({"iteration", "predicted", "measured", "error"}, {"", "s", "s", "%"});
  for (const Row& r : rows)
    if (r.kind != "comm")
      it.add_row({r.kind == "steady" ? "steady" : std::to_string(r.iteration), fmt("%.4f", r.predicted_s),
                  fmt("%.4f", r.measured_s), fmt("%+.1f", r.error_pct())});
  it.write(out);
  TextTable ct({"task", "name", "iteration", "op", "bytes", "predicted", "measured", "error"},
               {"", "", "", "", "B", "ms", "ms", "%"});
  std::vector<double> errors;
  double psum = 0, msum = 0;
  for (const Row& r : rows) {
    if (r.kind != "comm") continue;
    ct.add_row({std::to_string(r.task), r.name, std::to_string(r.iteration), r.op, fmt("%.0f", r.bytes),
                fmt("%.3f", r.predicted_s * 1e3), fmt("%.3f", r.measured_s * 1e3), fmt("%+.1f", r.error_pct())});
    errors.push_back(std::abs(r.error_pct()));
    psum += r.predicted_s;
    msum += r.measured_s;
  }
  if (errors.empty()) return;
  out << '\n';
  ct.write(out);
  std::nth_element(errors.begin(), errors.begin() + errors.size() / 2, errors.end());
  out << "\ncommunication tasks: " << errors.size() << ", summed time predicted " << fmt("%.4f", psum)
      << " s, measured " << fmt("%.4f", msum) << " s; median |error| " << fmt("%.1f", errors[errors.size() / 2])
      << " %\n";
}

void write_csv(std::ostream& out, const std::vector<Row>& rows) {
  out << "kind,task,name,iteration,op,bytes,predicted_s,measured_s,error_pct\n";
  for (const Row& r : rows)
    out << r.kind << ',' << (r.task >= 0 ? std::to_string(r.task) : "") << ',' << r.name << ','
        << (r.iteration >= 0 ? std::to_string(r.iteration) : "") << ',' << r.op << ',' << fmt("%.0f", r.bytes) << ','
        << fmt("%.9f", r.predicted_s) << ',' << fmt("%.9f", r.measured_s) << ',' << fmt("%.3f", r.error_pct()) << '\n';
}

int run(const std::vector<std::string>& args) {
  po::options_description opts("options");
  std::string predicted_path, measured_path, backend, format, output;
  opts.add_options()
      ("predicted", po::value(&predicted_path)->required(), "timeline JSON, or the schedule JSON to predict")
      ("measured", po::value(&measured_path)->required(), "timeline JSON (scalecast execute -o)")
      ("backend,b", po::value(&backend)->default_value("analytical"), "predicts PREDICTED when it is a schedule")
      ("format,f", po::value(&format)->default_value("table"), "table or csv")
      ("iterations-only", po::bool_switch(), "leave out the per-task rows")
      ("output,o", po::value(&output), "write to FILE instead of stdout");
  po::positional_options_description pos;
  pos.add("predicted", 1).add("measured", 1);
  return guarded("compare", [&] {
    po::variables_map vm;
    if (parse_options("compare", "PREDICTED.json MEASURED.json [--format table|csv]", opts, pos, args, vm)) return 0;
    if (format != "table" && format != "csv")
      throw std::invalid_argument("unknown format '" + format + "' (known: table, csv)");
    const TimelineFile p = load(predicted_path, backend), m = load(measured_path, backend);
    check_same_schedule(p, m, predicted_path, measured_path);
    const auto rows = compare(p, m, !vm["iterations-only"].as<bool>());
    write_output(output, [&](std::ostream& o) {
      if (format == "csv") write_csv(o, rows);
      else write_table(o, rows, p, m);
    });
    return 0;
  });
}

const Registration reg{"compare", "compare a predicted and a measured timeline of one schedule", run};

}  // namespace
}  // namespace scalecast::cli
