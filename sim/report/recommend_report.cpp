// Ranked configurations for people (tables with units rows) and scripts (CSV, JSON), with fixed
// precision so that the same search prints the same bytes, and the Pareto plot's data and script.
#include "sim/report/recommend_report.h"

#include <algorithm>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <stdexcept>

#include "sim/io/json_text.h"
#include "sim/report/csv_field.h"
#include "sim/report/gnuplot.h"
#include "sim/report/prediction_report.h"
#include "sim/report/text_table.h"

namespace scalecast {
namespace {

using recommend::Outcome;
using recommend::Search;

constexpr double kGiB = 1024.0 * 1024 * 1024;

std::string network_of(const Search& s, const Outcome& o) {
  const std::string& name = s.variants[o.variant].network;
  return name.empty() ? fmt::format("{:g}Gbps {}", o.row.network_bandwidth * 8 / 1e9, o.row.transport) : name;
}

// Knob and swept keys whose value differs between outcomes: what tells the rows apart.
std::vector<std::string> varying_keys(const std::vector<Outcome>& ranked) {
  std::vector<std::string> keys;
  for (const auto& o : ranked)
    for (const auto& [key, value] : o.row.settings)
      if (std::find(keys.begin(), keys.end(), key) == keys.end()) keys.push_back(key);
  return keys;
}

// A row's knob and swept values in one cell: "allreduce=ring bucket_size=25MB" (the last part of
// each key path).
std::string settings_text(const PredictionRow& row, const std::vector<std::string>& keys) {
  std::string out;
  for (const auto& key : keys) {
    const std::string value = setting(row, key);
    if (value.empty()) continue;
    out += (out.empty() ? "" : " ") + key.substr(key.rfind('.') + 1) + "=" + value;
  }
  return out.empty() ? "-" : out;
}

// The table: one row per outcome given, in the order given, with its rank.
void table(std::ostream& out, const Search& s, const std::vector<const Outcome*>& rows,
           const std::vector<std::size_t>& ranks, const std::vector<std::string>& keys) {
  const bool priced = s.priced, training = s.samples > 0;
  const std::string unit = rows.empty() ? "samples" : rows[0]->row.sample_unit;
  const std::string cur = s.base.prices.currency;
  std::vector<std::string> names = {"rank", "method", "gpus", "nodes", "network", "settings"},
                           units = {"", "", "", "", "", ""};
  names.insert(names.end(), {"iteration", "throughput", "efficiency", "exposed_comm", "memory"});
  units.insert(units.end(), {"s", unit + "/s", "fraction", "s", "GiB/GPU"});
  if (priced) {
    names.insert(names.end(), {"price", "cost"});
    units.insert(units.end(), {cur + "/h", cur + "/M " + unit});
  }
  if (training) {
    names.push_back("train_time");
    units.push_back("h");
    if (priced) {
      names.push_back("train_cost");
      units.push_back(cur);
    }
  }
  TextTable t(names, units);
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const Outcome& o = *rows[i];
    std::vector<std::string> cells = {std::to_string(ranks[i]), o.row.method, std::to_string(o.row.gpus),
                                      std::to_string(o.row.nodes), network_of(s, o)};
    cells.push_back(settings_text(o.row, keys));
    cells.insert(cells.end(), {fmt::format("{:.4f}", o.row.iteration_s), fmt::format("{:.1f}", o.row.throughput),
                               fmt::format("{:.3f}", o.row.efficiency), fmt::format("{:.4f}", o.row.exposed_comm_s),
                               fmt::format("{:.1f}", o.row.memory.needed_bytes() / kGiB)});
    if (priced) cells.insert(cells.end(), {fmt::format("{:.2f}", o.price_per_hour), fmt::format("{:.3f}", o.cost_per_million)});
    if (training) {
      cells.push_back(fmt::format("{:.2f}", o.train_s / 3600));
      if (priced) cells.push_back(fmt::format("{:.0f}", o.train_cost));
    }
    t.add_row(cells);
  }
  t.write(out);
}

// Each GPU's price and the catalog entry it comes from (null: the scenario's prices.gpu_hour).
nlohmann::ordered_json gpu_prices_json(const Search& s) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const auto& [gpu, price] : s.gpu_prices) {
    nlohmann::ordered_json entry = nullptr;
    if (const PriceEntry* e = price.entry)
      entry = {{"provider", e->provider}, {"instance", e->instance}, {"gpus", e->gpus},
               {"region", e->region},     {"pricing", to_string(e->pricing)}, {"price_date", e->price_date},
               {"source", e->source}};
    out.push_back({{"gpu", gpu}, {"per_gpu_hour", price.per_hour}, {"catalog_entry", std::move(entry)}});
  }
  return out;
}

}  // namespace

void write_recommend_prices(std::ostream& out, const Search& s) {
  if (!s.priced) {
    out << "prices     none: " << s.unpriced << "\n";
    return;
  }
  const std::string& cur = s.base.prices.currency;
  const char* lead = "prices     ";
  for (const auto& [gpu, price] : s.gpu_prices) {
    out << lead << "GPU " << gpu << " " << recommend::describe(price, cur) << "\n";
    lead = "           ";
  }
  for (const auto& n : s.base.search.networks)
    out << lead << fmt::format("network {} {:g} {} per node-hour", n.name, n.node_hour.value_or(0), cur) << "\n";
  if (s.base.prices.server_hour)
    out << lead << fmt::format("dedicated server {:g} {} per hour (prices.server_hour)", *s.base.prices.server_hour, cur)
        << "\n";
}

void write_recommend_table(std::ostream& out, const Search& s, const std::vector<Outcome>& ranked, std::size_t top) {
  const std::size_t n = top == 0 ? ranked.size() : std::min(top, ranked.size());
  std::vector<const Outcome*> rows;
  std::vector<std::size_t> ranks;
  for (std::size_t i = 0; i < n; ++i) {
    rows.push_back(&ranked[i]);
    ranks.push_back(i + 1);
  }
  table(out, s, rows, ranks, varying_keys(ranked));
}

void write_recommend_summary(std::ostream& out, const Search& s, const std::vector<Outcome>& ranked) {
  const auto keys = varying_keys(ranked);
  // The best of each (GPU count, network), by GPU count then rank: what each network buys at
  // each size.
  std::vector<std::size_t> best;
  std::vector<std::pair<int, std::string>> seen;
  for (std::size_t i = 0; i < ranked.size(); ++i) {
    const std::pair<int, std::string> key{ranked[i].row.gpus, network_of(s, ranked[i])};
    if (std::find(seen.begin(), seen.end(), key) != seen.end()) continue;
    seen.push_back(key);
    best.push_back(i);
  }
  std::stable_sort(best.begin(), best.end(),
                   [&](std::size_t a, std::size_t b) { return ranked[a].row.gpus < ranked[b].row.gpus; });
  std::vector<const Outcome*> rows;
  std::vector<std::size_t> ranks;
  for (std::size_t i : best) {
    rows.push_back(&ranked[i]);
    ranks.push_back(i + 1);
  }
  out << "\nbest for each GPU count and network (" << to_string(s.objective) << "):\n";
  table(out, s, rows, ranks, keys);
  if (!s.priced) return;
  std::vector<std::size_t> front;
  for (std::size_t i = 0; i < ranked.size(); ++i)
    if (ranked[i].pareto) front.push_back(i);
  std::stable_sort(front.begin(), front.end(),
                   [&](std::size_t a, std::size_t b) { return ranked[a].row.throughput > ranked[b].row.throughput; });
  rows.clear();
  ranks.clear();
  for (std::size_t i : front) {
    rows.push_back(&ranked[i]);
    ranks.push_back(i + 1);
  }
  out << "\nPareto front (no other configuration is both faster and cheaper per sample), fastest first:\n";
  table(out, s, rows, ranks, keys);
}

void write_recommend_csv(std::ostream& out, const std::vector<Outcome>& ranked) {
  std::vector<PredictionRow> rows;
  for (const auto& o : ranked) rows.push_back(o.row);
  const PredictionCsv csv(rows);
  out << "rank,pareto,servers,price_per_hour,cost_per_million_samples,train_s,train_cost,memory_bytes,"
      << csv.header() << '\n';
  for (std::size_t i = 0; i < ranked.size(); ++i) {
    const Outcome& o = ranked[i];
    out << fmt::format("{},{},{},{:.4f},{:.6f},{:.1f},{:.2f},{:.0f},", i + 1, o.pareto ? 1 : 0, o.servers,
                       o.price_per_hour, o.cost_per_million, o.train_s, o.train_cost, o.row.memory.needed_bytes())
        << csv.line(o.row) << '\n';
  }
}

void write_recommend_json(std::ostream& out, const Search& s, const std::vector<Outcome>& ranked) {
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (std::size_t i = 0; i < ranked.size(); ++i) {
    const Outcome& o = ranked[i];
    list.push_back({{"rank", i + 1},
                    {"network", s.variants[o.variant].network},
                    {"pareto", o.pareto},
                    {"servers", o.servers},
                    {"price_per_hour", o.price_per_hour},
                    {"cost_per_million_samples", o.cost_per_million},
                    {"train_s", o.train_s},
                    {"train_cost", o.train_cost},
                    {"prediction", prediction_json(o.row)}});
  }
  nlohmann::ordered_json j = {{"scenario", s.base.name},
                              {"objective", to_string(s.objective)},
                              {"samples", s.samples},
                              {"currency", s.priced ? s.base.prices.currency : ""},
                              {"gpu_prices", gpu_prices_json(s)},
                              {"unpriced", s.unpriced},
                              {"skipped_out_of_memory", s.skipped_memory},
                              {"skipped_out_of_memory_example", s.largest_skipped},
                              {"memory_warnings", s.warned_memory},
                              {"memory_warning_example", s.example_warned},
                              {"configurations", std::move(list)}};
  if (s.base.search.global_batch > 0) {
    j["global_batch"] = s.base.search.global_batch;
    j["skipped_global_batch"] = s.skipped_batch;
  }
  out << json_text(j, 2) << "\n";
}

std::string plot_recommend(const std::string& png_path, const Search& s, const std::vector<Outcome>& ranked) {
  namespace fs = std::filesystem;
  const fs::path png = fs::absolute(png_path);
  const fs::path folder = png.parent_path();
  const std::string stem = png.stem().string();
  // One block per (network, method): colour by method, point shape by network.
  std::vector<std::string> methods, networks;
  for (const auto& o : ranked) {
    if (std::find(methods.begin(), methods.end(), o.row.method) == methods.end()) methods.push_back(o.row.method);
    const std::string n = network_of(s, o);
    if (std::find(networks.begin(), networks.end(), n) == networks.end()) networks.push_back(n);
  }
  std::string data, plot = "plot ";
  int block = 0;
  for (std::size_t ni = 0; ni < networks.size(); ++ni)
    for (std::size_t mi = 0; mi < methods.size(); ++mi) {
      std::string rows;
      for (const auto& o : ranked)
        if (o.row.method == methods[mi] && network_of(s, o) == networks[ni])
          rows += fmt::format("{:.6g} {:.6g} {}\n", o.row.throughput, o.cost_per_million, o.row.gpus);
      if (rows.empty()) continue;
      data += "# " + methods[mi] + " on " + networks[ni] + ": throughput (samples/s), cost per million samples, gpus\n" +
              rows + "\n\n";
      const int shape[] = {7, 5, 9, 11, 13, 15};
      plot += fmt::format("{} index {} using 1:2 with points pt {} ps 0.8 lc {} title {}, \\\n     ",
                          gnuplot_quoted(stem + ".dat"), block++, shape[ni % 6], mi % 8 + 1,
                          gnuplot_quoted(methods[mi] + ", " + networks[ni]));
    }
  std::vector<const Outcome*> front;
  for (const auto& o : ranked)
    if (o.pareto) front.push_back(&o);
  std::stable_sort(front.begin(), front.end(), [](auto* a, auto* b) { return a->row.throughput < b->row.throughput; });
  data += "# Pareto front\n";
  for (const auto* o : front) data += fmt::format("{:.6g} {:.6g} {}\n", o->row.throughput, o->cost_per_million, o->row.gpus);
  const std::string unit = ranked.empty() ? "samples" : ranked[0].row.sample_unit;
  plot += fmt::format("{} index {} using 1:2 with linespoints lw 2 lc rgb 'black' pt 6 ps 1.5 title 'Pareto front'",
                      gnuplot_quoted(stem + ".dat"), block);
  const std::string script = gnuplot_preamble("scalecast recommend") + "set output " +
                             gnuplot_quoted(png.filename().string()) + "\nset title " +
                             gnuplot_quoted(s.base.name + ": every configuration, and the Pareto front") +
                             "\nset xlabel " + gnuplot_quoted("throughput (" + unit + "/s)") + "\nset ylabel " +
                             gnuplot_quoted("cost (" + s.base.prices.currency + " per million " + unit + ")") +
                             "\nset logscale xy\nset key outside right top\n" + plot + "\n";
  auto write = [](const fs::path& p, const std::string& text) {
    std::ofstream f(p, std::ios::trunc);
    f << text;
    if (!f) throw std::runtime_error("cannot write " + p.string());
  };
  write(folder / (stem + ".dat"), data);
  write(folder / (stem + ".gp"), script);
  return run_gnuplot(folder.string(), stem + ".gp");
}

}  // namespace scalecast
