// The configurations a search tries and what each costs: every network option x method x value
// of the method's knobs x swept value (a variant: one scenario) x GPU count, predicted in
// parallel by the analytical backend, priced, ranked by an objective, with the Pareto front of
// throughput against cost per sample.
#pragma once

#include <cstddef>
#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "sim/prediction/prediction.h"
#include "sim/recommend/pricing.h"
#include "sim/scenario/scenario.h"

namespace scalecast::recommend {

// What the command line adds to or puts in place of the scenario's search space.
struct SearchRequest {
  ScenarioOverrides base;                 // --cluster and --set, applied first
  std::vector<int> gpus;                  // non-empty: replaces search.gpus
  std::vector<std::string> methods;       // non-empty: replaces search.methods
  std::vector<SweepAxis> sweep;           // added to search.sweep
  bool objective_set = false;
  Objective objective = Objective::throughput;
  double samples = 0;                     // > 0: replaces search.samples
  int threads = 0;                        // 0: every core
  bool needs_prices = false;              // refuse an unpriced search whatever the objective
};

// One scenario of the search: the base scenario with one network option, one method and one
// value of each knob and swept key applied.
struct Variant {
  Scenario scenario;
  std::string method;
  std::string network;                    // the option's name ("" for the scenario's own)
  double node_hour = 0;                   // the network option's price per node-hour (0: none given)
  std::vector<std::pair<std::string, std::string>> settings;  // knob and swept keys, in order
  std::map<int, MemoryFit> memory;        // per GPU count that fits
  std::size_t workload = 0;               // index into Search::workloads
};

// One evaluated configuration.
struct Outcome {
  std::size_t variant = 0;
  PredictionRow row;
  int servers = 0;                // dedicated parameter-server machines
  double price_per_hour = 0;      // 0 without prices
  double cost_per_million = 0;    // price per million samples (0 without prices)
  double train_s = 0;             // time to train the search's samples (0: none given)
  double train_cost = 0;          // what that costs (0 without prices or samples)
  bool pareto = false;            // on the front of throughput vs cost per sample
};

struct Search {
  Scenario base;                          // the scenario as read, with --set and --cluster
  Objective objective = Objective::throughput;
  double samples = 0;
  std::vector<Variant> variants;          // that fit in memory
  std::vector<BuiltWorkload> workloads;   // shared by the variants with the same model and GPU
  std::vector<std::pair<std::size_t, int>> configurations;  // (variant, gpus), in search order
  std::size_t skipped_memory = 0;         // configurations left out: the memory estimate does not fit
  std::size_t skipped_batch = 0;          // left out: another global batch than search.global_batch
  std::string largest_skipped;            // memory summary of one left out, for the message
  std::size_t warned_memory = 0;          // kept: the estimate fits, its interval's high end does not
  std::string example_warned;             // the warning of one of them
  // Priced when every configuration has a price for all it uses: its GPUs (the scenario's
  // prices.gpu_hour or the price catalog), its network option's NICs (node_hour) and its
  // dedicated parameter servers (prices.server_hour). Otherwise `unpriced` says what lacks one.
  bool priced = false;
  std::map<std::string, GpuPrice> gpu_prices;  // by GPU, when priced
  std::string unpriced;                   // the first price missing: the error naming its key
};

// Reads the space: every variant is read and checked (one clear error naming the file line of
// the offending value), workloads built once per model and GPU, and variants that do not fit
// in memory left out. Throws InputError for a bad space or bad values, and for a price missing
// where the search needs prices: the objective is cost, `request.needs_prices` (a plot), or
// the scenario has a prices: section (what it left out is not taken as free).
Search plan_search(const std::string& scenario_path, const SearchRequest& request);

// Predicts every configuration (analytical backend, `threads` at once), prices and ranks them:
// best first by the objective, ties in search order. `progress(done, total)` is called from the
// calling thread about once a second while the threads work.
std::vector<Outcome> run_search(const Search& search, int threads,
                                const std::function<void(std::size_t, std::size_t)>& progress = {});
// Its two steps, for a search sharded over processes: the prediction of the configurations
// `which` (indices into search.configurations; one row each, in that order) ...
std::vector<PredictionRow> predict_configurations(const Search& search, const std::vector<std::size_t>& which,
                                                 int threads,
                                                 const std::function<void(std::size_t, std::size_t)>& progress = {});
// ... and the pricing and ranking of one predicted row per configuration (rows[i]: configuration i).
std::vector<Outcome> rank_configurations(const Search& search, std::vector<PredictionRow> rows);

// Dedicated parameter-server machines a configuration runs: a parameter-server method whose
// servers have machines of their own (none where a one-node run reduces on its node).
int dedicated_servers(const Variant& v, int nodes, int gpus);

// Marks the Pareto front among outcomes with a price: no other is both at least as fast and at
// most as costly per sample, and strictly better in one.
void mark_pareto_front(std::vector<Outcome>& outcomes);

}  // namespace scalecast::recommend
