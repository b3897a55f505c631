// `scalecast recommend`: searches a scenario's space of GPU counts, networks, methods and knobs
// for the best configuration by throughput, time to train or cost, and prints the ranking, the
// best per network and the Pareto front (table, CSV, JSON, gnuplot plot).
#include <chrono>
#include <ctime>
#include <filesystem>
#include <fmt/format.h>
#include <iostream>

#include "cli/command.h"
#include "cli/common.h"
#include "cli/scenario_input.h"
#include "cli/sharding.h"
#include "sim/io/input_error.h"
#include "sim/report/prediction_row_json.h"
#include "sim/recommend/search.h"
#include "sim/report/recommend_report.h"
#include "sim/io/units.h"

namespace scalecast::cli {
namespace {

const char* const kSynopsis = R"(SCENARIO.yaml [options]

Searches the scenario's `search:` section (GPU counts, networks with their price per node-hour,
methods, each method's knobs as scenario key paths with values to try, keys swept for every
configuration) and ranks every configuration that fits in GPU memory by the objective:
  throughput  the most samples/s
  time        the shortest time to train search.samples (same order, in hours)
  cost        the lowest price per million samples: per GPU-hour the scenario's prices.gpu_hour
              (by GPU or '*'), else the price catalog's (`scalecast prices`: each provider's
              newest price of prices.pricing, default on-demand, then the cheapest; prices.provider
              keeps one provider); the network's node_hour per node; prices.server_hour per
              dedicated parameter server. A price missing is refused (objective cost, --plot, or a
              prices: section), else the search is unpriced and stderr says what lacks a price.
Predictions are analytical; every core works. Example section: scenarios/whatif-a100-25gbe.yaml.)";

double parse_samples(const std::string& text) {
  std::size_t used = 0;
  double v = 0;
  try {
    v = std::stod(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != text.size() || !(v >= 1 && v <= 1e18))
    throw InputError("--samples: expected a number of samples in [1, 1e18], got '" + text + "'");
  return v;
}

int run_share(const std::vector<std::string>& args, const WorkShare* merged) {
  po::options_description opts("options");
  std::string scenario_path, format, output, plot, objective, samples, cluster_file;
  std::vector<std::string> sets, sweeps, methods;
  std::vector<int> gpus;
  long top = 15;
  int threads = 0;
  opts.add_options()("scenario", po::value(&scenario_path)->required(), "scenario YAML file")(
      "objective", po::value(&objective), "throughput, time or cost (default: the scenario's search.objective)")(
      "samples", po::value(&samples), "samples a training run processes (time and total cost)")(
      "method,m", po::value(&methods)->composing(), "search only this method (repeatable)")(
      "gpus,g", po::value(&gpus)->composing(), "search only this GPU count (repeatable)")(
      "sweep", po::value(&sweeps)->composing(), "KEY.PATH=V1,V2,...: also try these values (repeatable)")(
      "top", po::value(&top)->default_value(15), "rows of the ranking to print (0: all); CSV and JSON have all")(
      "format,f", po::value(&format)->default_value("table"), "table, csv or json")(
      "output,o", po::value(&output), "write to FILE instead of stdout")(
      "plot", po::value(&plot), "draw the Pareto front to FILE.png with gnuplot (needs prices)")(
      "threads", po::value(&threads)->default_value(0), "threads to predict with (0: every core)");
  bool allow_other_cluster = false;
  add_scenario_options(opts, sets, cluster_file, allow_other_cluster);
  ShardOptions shard;
  add_shard_options(opts, shard);
  po::positional_options_description pos;
  pos.add("scenario", 1);
  return guarded("recommend", [&] {
    po::variables_map vm;
    po::parsed_options parsed(nullptr);
    const std::vector<std::string> outputs = {"output", "plot", "part"};
    if (parse_options("recommend", kSynopsis, opts, pos, args, vm, &parsed, outputs)) return 0;
    const WorkShare share = work_share(shard, merged);
    if (top < 0) throw InputError("--top: expected 0 (all) or more rows, got " + std::to_string(top));
    check_format(format, {"table", "csv", "json"});
    if (threads < 0 || threads > 1024) throw InputError("--threads: expected 0 to 1024");
    const ScenarioInput input = load_scenario_input(scenario_path, sets, cluster_file, allow_other_cluster);
    recommend::SearchRequest request;
    request.base = input.applied;
    request.gpus = gpus;
    request.methods = methods;
    for (const auto& text : sweeps) request.sweep.push_back(parse_sweep_axis(text));
    if (!objective.empty()) {
      request.objective = parse_objective(objective);
      request.objective_set = true;
    }
    if (!samples.empty()) request.samples = parse_samples(samples);
    request.needs_prices = !plot.empty();
    const auto wall0 = std::chrono::steady_clock::now();
    const std::clock_t cpu0 = std::clock();
    // The plot is drawn after the outputs are written: a folder it cannot go to is refused first,
    // before the search is planned (and refused for a price it lacks).
    if (const auto folder = std::filesystem::path(plot).parent_path(); !plot.empty() && !folder.empty()) {
      std::error_code ec;
      if (!std::filesystem::is_directory(folder, ec))
        throw InputError(InputKind::output, "--plot " + plot + ": expected a file in an existing folder, got no folder " + folder.string());
    }
    const recommend::Search search = recommend::plan_search(scenario_path, request);
    if (search.configurations.empty())
      throw InputError(InputKind::file, scenario_path + ": search: no configuration fits in GPU memory (one needs " +
                           search.largest_skipped + ")");
    if (!search.priced) std::cerr << "recommend: not priced: " << search.unpriced << "\n";
    std::cerr << "recommend: " << search.configurations.size() << " configurations (" << search.variants.size()
              << " scenarios x GPU counts)\n";
    auto last = std::chrono::steady_clock::now();
    const std::string who = share.sharded() ? "recommend: shard " + share.name() + ": " : "recommend: ";
    const auto report = [&](std::size_t done, std::size_t total) {
      const auto now = std::chrono::steady_clock::now();
      if (now - last < std::chrono::seconds(1) || done == total) return;
      last = now;
      std::cerr << who << done << "/" << total << " configurations predicted\n";
    };
    // Work item j is configuration j in search order; a shard predicts its items, a merge reads
    // every row back, and either way the ranking is of all of them.
    const std::size_t total = search.configurations.size();
    share.check_total(total);
    const ShardProgress progress("recommend", share, total, "configurations");
    std::vector<PredictionRow> rows;
    for (std::size_t j = 0; share.merging() && j < total; ++j) rows.push_back(read_predicted_row(share.result(j)));
    if (!share.merging()) rows = recommend::predict_configurations(search, share.items(total), threads, report);
    if (share.sharded()) {
      Part part = part_of("recommend", parsed, vm, outputs, {search.base.model.profile});
      part.items = total;
      part.shard = share.index();
      part.shards = share.count();
      const std::vector<std::size_t> mine = share.items(total);
      for (std::size_t k = 0; k < mine.size(); ++k) part.results[mine[k]] = predicted_row_json(rows[k]);
      write_output(shard.part, [&](std::ostream& o) { write_part(o, part); });
      progress.wrote(shard.part);
      return 0;
    }
    const auto ranked = recommend::rank_configurations(search, std::move(rows));
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
    const double cpu = static_cast<double>(std::clock() - cpu0) / CLOCKS_PER_SEC;
    std::cerr << fmt::format("recommend: {} configurations in {:.2f} s ({:.2f} s of CPU)\n", ranked.size(), wall, cpu);
    OutputFiles files;
    write_output(files, output, [&](std::ostream& o) {
      if (format == "csv") return write_recommend_csv(o, ranked);
      if (format == "json") return write_recommend_json(o, search, ranked);
      const Scenario& s = search.base;
      o << "scenario   " << s.name << " (" << s.path << ")\n"
        << "search     " << search.configurations.size() << " configurations: " << search.variants.size()
        << " scenarios (network x method x knob values) x GPU counts";
      if (search.skipped_memory > 0)
        o << "; " << search.skipped_memory << " left out: do not fit in GPU memory (e.g. " << search.largest_skipped << ")";
      if (search.skipped_batch > 0)
        o << "; " << search.skipped_batch << " left out: they step on another global batch than search.global_batch ("
          << search.base.search.global_batch << ")";
      if (search.warned_memory > 0)
        o << "; " << search.warned_memory << " kept whose memory estimate fits but not its interval's high end (e.g. "
          << search.example_warned << ")";
      o << "\nobjective  " << to_string(search.objective);
      if (search.samples > 0) o << fmt::format(", training run of {:g} {}", search.samples, ranked[0].row.sample_unit);
      o << "\n";
      write_recommend_prices(o, search);
      o << "\n";
      write_recommend_table(o, search, ranked, static_cast<std::size_t>(top));
      write_recommend_summary(o, search, ranked);
    });
    files.commit();
    if (!plot.empty()) {
      const std::string problem = plot_recommend(plot, search, ranked);
      if (!problem.empty()) std::cerr << "recommend: " << problem << "\n";
      else std::cerr << "recommend: drew " << plot << "\n";
    }
    return 0;
  });
}

int run(const std::vector<std::string>& args) { return run_share(args, nullptr); }
int run_merged(const std::vector<std::string>& args, const WorkShare& merged) { return run_share(args, &merged); }

const Registration reg{"recommend", "search GPU counts, networks, methods and knobs for the best configuration", run,
                       run_merged};

}  // namespace
}  // namespace scalecast::cli
