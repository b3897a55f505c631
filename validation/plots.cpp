// gnuplot output: one .dat per plot (blocks per method or per table, for `index`), one script
// that draws every PNG (pngcairo when available, else png), run with the report folder as cwd.
#include "validation/plots.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <stdexcept>
#include <tuple>

#include "sim/report/text_table.h"

extern char** environ;

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

std::string quoted(const std::string& text) {  // a gnuplot single-quoted string
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("''") : std::string(1, c);
  return out + "'";
}

// Runs `gnuplot plots.gp` in `folder` (no shell), its output in gnuplot.log there. Returns the
// exit status, or -1 when gnuplot cannot be started (not installed).
int run_gnuplot(const fs::path& folder) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  const std::string log = (folder / "gnuplot.log").string();
  const std::string dir = folder.string();
  posix_spawn_file_actions_addopen(&actions, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&actions, 1, 2);
  posix_spawn_file_actions_addchdir_np(&actions, dir.c_str());
  char program[] = "gnuplot", script[] = "plots.gp";
  char* argv[] = {program, script, nullptr};
  pid_t pid = 0;
  const int error = posix_spawnp(&pid, program, &actions, nullptr, argv, environ);
  posix_spawn_file_actions_destroy(&actions);
  if (error != 0) return -1;
  int status = 0;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

struct Plot {
  std::string name;    // file stem
  std::string script;  // gnuplot commands that draw it
};

const char* kPreamble =
    "# Drawn by scalecast validate; run `gnuplot plots.gp` in this folder to redraw.\n"
    "if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {\n"
    "  set terminal pngcairo size 960,640 noenhanced font ',10'\n"
    "} else {\n"
    "  set terminal png size 960,640 noenhanced\n"
    "}\n"
    "set grid\n"
    "# Tableau 10: distinguishable on white, unlike the default yellow.\n"
    "set linetype 1 lc rgb '#4e79a7'\nset linetype 2 lc rgb '#f28e2b'\n"
    "set linetype 3 lc rgb '#e15759'\nset linetype 4 lc rgb '#76b7b2'\n"
    "set linetype 5 lc rgb '#59a14f'\nset linetype 6 lc rgb '#b07aa1'\n"
    "set linetype 7 lc rgb '#9c755f'\nset linetype 8 lc rgb '#bab0ac'\n";

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
    plots += std::string(plots.empty() ? "plot " : ", \\\n     ") + quoted(plot.name + ".dat") +
             " index " + std::to_string(index) + " using 1:4 with linespoints" + color +
             " pt 6 title " + quoted(method) + ", \\\n     '' index " + std::to_string(index) +
             " using 1:2:3 with yerrorbars" + color + " pt 7 notitle";
    ++index;
  }
  if (index == 0) return {};
  write_file(dir / (plot.name + ".dat"), data);
  plot.script = "set output " + quoted(plot.name + ".png") + "\nset title " +
                quoted(model + " on " + network + " (" + table + "), " + to_string(mode) +
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
    plots += std::string(plots.empty() ? "plot " : ", \\\n     ") + quoted(plot.name + ".dat") +
             " index " + std::to_string(index) + " using 1:2 with points pt 7 title " +
             quoted(table);
    ++index;
  }
  if (index == 0) return {};
  write_file(dir / (plot.name + ".dat"), data);
  plot.script = "set output " + quoted(plot.name + ".png") + "\nset title " +
                quoted("predicted vs measured, " + to_string(mode) +
                       (mode == Mode::calibrated ? " (held-out rows)" : " (all rows)")) +
                "\nset xlabel 'measured (samples/s)'\nset ylabel 'predicted (samples/s)'\n"
                "set logscale xy\nset key left top\n" +
                plots +
                ", \\\n     x with lines lc rgb 'black' dt 2 title 'y = x'\nunset logscale\n";
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
  std::string script = kPreamble;
  for (const auto& p : plots) script += "\n" + p.script;
  write_file(folder / "plots.gp", script);
  PlotOutcome out;
  progress << "validate: drawing " << plots.size() << " plots with gnuplot\n";
  const int status = run_gnuplot(folder);
  if (status < 0) {
    out.problem = "gnuplot is not installed: the data files and plots.gp are written, no PNGs";
    return out;
  }
  if (status != 0) {
    out.problem = "gnuplot failed (see gnuplot.log in the report folder)";
    return out;
  }
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
