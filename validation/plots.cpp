// gnuplot output: one .dat per plot (blocks per method or per table, for `index`), one script
// that draws every PNG (pngcairo when available, else png), run with the report folder as cwd.
#include "validation/plots.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <stdexcept>
#include <tuple>

#include "sim/report/gnuplot.h"
#include "sim/report/text_table.h"

namespace scalecast::validation {
namespace {

namespace fs = std::filesystem;

std::string slug(const std::string& text) {
  std::string out;
  for (char c : text) {
    const auto u = static_cast<unsigned char>(c);
    out += std::isalnum(u) ? static_cast<char>(std::tolower(u)) : '-';
  }
  return out;
}

// The table's short name: its first word ("ddl", "distml").
std::string table_tag(const std::string& table) { return slug(table.substr(0, table.find('-'))); }

void write_file(const fs::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::trunc);
  out << text;
  if (!out) throw std::runtime_error("cannot write " + path.string());
}

struct Plot {
  std::string name;    // file stem
  std::string script;  // gnuplot commands that draw it
};

Plot scaling_plot(const ValidationResult& v, Mode mode, const std::string& table,
                  const std::string& model, const std::string& network, const fs::path& dir) {
  Plot plot{"scaling-" + slug(to_string(mode)) + "-" + table_tag(table) + "-" + slug(model) + "-" +
                slug(network),
            ""};
  std::vector<std::string> methods;
  std::string data;
  for (const auto& r : v.rows)
    if (r.table == table && r.model == model && r.network == network &&
        std::find(methods.begin(), methods.end(), r.method) == methods.end())
      methods.push_back(r.method);
  std::string plots;
  int index = 0;
  for (const auto& method : methods) {
    std::string block = "# " + method + ": gpus measured stddev predicted (samples/s)\n";
    bool any = false;
    for (std::size_t i = 0; i < v.rows.size(); ++i) {
      const MeasuredRow& r = v.rows[i];
      const RowPrediction& p = v.predictions(mode)[i];
      if (r.table != table || r.model != model || r.network != network || r.method != method ||
          !p.predicted)
        continue;
      block += std::to_string(r.gpus) + " " + fmt::format("{:.6g}", r.throughput) + " " +
               fmt::format("{:.6g}", std::max(0.0, r.stddev)) + " " + fmt::format("{:.6g}", p.throughput) + "\n";
      any = true;
    }
    if (!any) continue;
    data += block + "\n\n";
    const std::string color = " lc " + std::to_string(index + 1);
    plots += std::string(plots.empty() ? "plot " : ", \\\n     ") + gnuplot_quoted(plot.name + ".dat") +
             " index " + std::to_string(index) + " using 1:4 with linespoints" + color +
             " pt 6 title " + gnuplot_quoted(method) + ", \\\n     '' index " + std::to_string(index) +
             " using 1:2:3 with yerrorbars" + color + " pt 7 notitle";
    ++index;
  }
  if (index == 0) return {};
  write_file(dir / (plot.name + ".dat"), data);
  plot.script = "set output " + gnuplot_quoted(plot.name + ".png") + "\nset title " +
                gnuplot_quoted(model + " on " + network + " (" + table + "), " + to_string(mode) +
                       ": lines predicted, points measured (error bars: 1 stddev)") +
                "\nset xlabel 'GPUs'\nset ylabel 'throughput (samples/s)'\nset logscale x 2\n"
                "set key left top\nset offsets graph 0.05, graph 0.05, 0, 0\n" +
                plots + "\nunset logscale\nset offsets 0, 0, 0, 0\n";
  return plot;
}

Plot scatter_plot(const ValidationResult& v, Mode mode, const fs::path& dir) {
  Plot plot{"scatter-" + slug(to_string(mode)), ""};
  std::string data, plots;
  int index = 0;
  for (const auto& table : table_names(v.rows)) {
    std::string block = "# " + table + ": measured predicted (samples/s)\n";
    bool any = false;
    for (std::size_t i : v.evaluated_rows(mode, false)) {
      if (v.rows[i].table != table) continue;
      block += fmt::format("{:.6g}", v.rows[i].throughput) + " " +
               fmt::format("{:.6g}", v.predictions(mode)[i].throughput) + "\n";
      any = true;
    }
    if (!any) continue;
    data += block + "\n\n";
    plots += std::string(plots.empty() ? "plot " : ", \\\n     ") + gnuplot_quoted(plot.name + ".dat") +
             " index " + std::to_string(index) + " using 1:2 with points pt 7 title " +
             gnuplot_quoted(table);
    ++index;
  }
  if (index == 0) return {};
  write_file(dir / (plot.name + ".dat"), data);
  plot.script = "set output " + gnuplot_quoted(plot.name + ".png") + "\nset title " +
                gnuplot_quoted("predicted vs measured, " + to_string(mode) +
                       (mode == Mode::calibrated ? " (held-out rows)" : " (all rows)")) +
                "\nset xlabel 'measured (samples/s)'\nset ylabel 'predicted (samples/s)'\n"
                "set logscale xy\nset key left top\n" +
                plots +
                ", \\\n     x with lines lc rgb 'black' dt 2 title 'y = x'\nunset logscale\n";
  return plot;
}

// Bus bandwidth against size for one measured collective: nccl-tests' busbw of the measured and
// the predicted time (doc/PERFORMANCE.md: bytes / time x the operation's bus factor).
Plot collective_plot(const ClusterRun& run, const fs::path& dir) {
  Plot plot{"collective-" + slug(run.cluster), ""};
  const CollectiveComparison& k = run.comparison;
  const double factor = collectives::bus_factor(run.op, k.sized.gpus());
  std::string data = "# bytes measured_busbw predicted_busbw (GB/s)\n";
  for (const ComparedSize& c : k.sizes)
    data += fmt::format("{:.0f} {:.6g} {:.6g}\n", c.bytes, c.bytes / (c.measured_us * 1e3) * factor,
                        c.bytes / (c.predicted_us * 1e3) * factor);
  if (k.sizes.empty()) return {};
  write_file(dir / (plot.name + ".dat"), data);
  plot.script = "set output " + gnuplot_quoted(plot.name + ".png") + "\nset title " +
                gnuplot_quoted(run.cluster + ": " + to_string(run.op) + " on " + std::to_string(k.sized.nodes) + " x " +
                               std::to_string(k.sized.gpus_per_node) + " " + k.sized.gpu +
                               ", bus bandwidth (points measured, line predicted)") +
                "\nset xlabel 'size (bytes)'\nset ylabel 'bus bandwidth (GB/s)'\nset logscale x 2\nset format x '%.0b%B'\nset key left top\n"
                "plot " + gnuplot_quoted(plot.name + ".dat") + " using 1:3 with lines lw 2 title 'predicted', \\\n     '' using 1:2 "
                "with points pt 7 title 'measured'\nunset logscale\nset format x\n";
  return plot;
}

}  // namespace

PlotOutcome write_plots(const ValidationResult& v, const std::string& dir, std::ostream& progress) {
  const fs::path folder(dir);
  std::vector<Plot> plots;
  for (Mode mode : v.modes) {
    std::vector<std::tuple<std::string, std::string, std::string>> groups;
    for (const auto& r : v.rows) {
      const auto key = std::make_tuple(r.table, r.model, r.network);
      if (std::find(groups.begin(), groups.end(), key) == groups.end()) groups.push_back(key);
    }
    for (const auto& [table, model, network] : groups) {
      Plot p = scaling_plot(v, mode, table, model, network, folder);
      if (!p.name.empty()) plots.push_back(std::move(p));
    }
    Plot s = scatter_plot(v, mode, folder);
    if (!s.name.empty()) plots.push_back(std::move(s));
  }
  for (const ClusterRun& run : v.collectives.clusters) {
    if (!run.gate()) continue;
    Plot p = collective_plot(run, folder);
    if (!p.name.empty()) plots.push_back(std::move(p));
  }
  std::string script = gnuplot_preamble("scalecast validate");
  for (const auto& p : plots) script += "\n" + p.script;
  write_file(folder / "plots.gp", script);
  PlotOutcome out;
  progress << "validate: drawing " << plots.size() << " plots with gnuplot\n";
  out.problem = run_gnuplot(folder.string(), "plots.gp");
  if (!out.problem.empty()) return out;
  for (const auto& p : plots) {
    std::error_code ec;
    if (fs::is_regular_file(folder / (p.name + ".png"), ec))
      out.images.push_back(p.name + ".png");
    else
      out.problem = "gnuplot did not draw " + p.name + ".png (see gnuplot.log)";
  }
  return out;
}

}  // namespace scalecast::validation
