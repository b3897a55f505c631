// Planning a search (variants read and checked once, workloads shared, what does not fit left
// out), running it on every core with one analytical prediction per configuration, and pricing
// and ranking what comes back.
#include "sim/recommend/search.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <exception>
#include <stdexcept>
#include <limits>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <thread>

#include "sim/backends/analytical/analytical_backend.h"
#include "sim/io/input_error.h"
#include "sim/scenario/run_setup.h"
#include "sim/types/strategy.h"

namespace scalecast::recommend {
namespace {

constexpr std::size_t kMaxConfigurations = 1000000;

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string key_of(const std::string& assignment) { return assignment.substr(0, assignment.find('=')); }

// The overrides that change the workload (model and GPU keys), as one text: variants with the
// same text share one built workload.
std::string workload_key(const std::vector<ScenarioOverride>& overrides) {
  std::string key;
  for (const auto& o : overrides)
    if (o.assignment.starts_with("model.") || o.assignment.starts_with("gpu.")) key += o.assignment + "\n";
  return key;
}

// Prices every GPU of the search into out.gpu_prices and returns the first price a configuration
// lacks (its GPU's, its network option's, its dedicated servers'), as the error naming the key
// to set; "" when none lacks one.
std::string missing_price(Search& out, const std::string& path, const std::vector<NetworkOption>& networks) {
  const Prices& prices = out.base.prices;
  for (const Variant& v : out.variants) {
    const std::string& gpu = v.scenario.compute.gpu;
    if (out.gpu_prices.contains(gpu)) continue;
    const GpuPrice price = gpu_price(path, prices, gpu);
    if (!price.missing.empty()) return price.missing;
    out.gpu_prices.emplace(gpu, price);
  }
  for (const NetworkOption& n : networks)
    if (!n.node_hour)
      return n.node_hour_key + ": expected the price per node-hour of network '" + n.name +
             "' (its NICs, switch ports and cables; 0 where the GPU price covers them), got none";
  if (prices.server_hour) return "";
  for (const auto& [vi, gpus] : out.configurations) {
    const Variant& v = out.variants[vi];
    const int nodes = nodes_for(v.scenario.cluster, gpus);
    if (const int servers = dedicated_servers(v, nodes, gpus); servers > 0)
      return path + ": prices.server_hour: expected the price per hour of a dedicated parameter-server machine, " +
             "without its NIC (" + v.method + " at " + std::to_string(gpus) + " GPUs runs " + std::to_string(servers) +
             " servers on machines of their own, and the price catalog has no CPU-only instance), got none";
  }
  return "";
}

}  // namespace

int dedicated_servers(const Variant& v, int nodes, int gpus) {
  const Strategy strategy = strategy_for(v.scenario, v.method);
  const Cluster& c = v.scenario.cluster;
  if (strategy.aggregation != Aggregation::parameter_server || c.ps.placement != Placement::dedicated ||
      (strategy.node_local_reduce && nodes == 1))
    return 0;
  return c.ps.count(nodes, gpus);
}

Search plan_search(const std::string& path, const SearchRequest& request) {
  Search out;
  out.base = load_scenario(path, request.base);
  const std::string text = read_text(path);
  const SearchSpace& space = out.base.search;
  out.objective = request.objective_set ? request.objective : space.objective;
  out.samples = request.samples > 0 ? request.samples : space.samples;
  if (out.objective == Objective::time && !(out.samples > 0))
    throw InputError(InputKind::file, path + ": search.samples: expected the samples a training run processes to rank by time, got none");
  const std::vector<std::string> methods =
      !request.methods.empty() ? request.methods : !space.methods.empty() ? space.methods : out.base.methods;
  const std::vector<int> gpus = !request.gpus.empty() ? request.gpus : !space.gpus.empty() ? space.gpus : out.base.gpus;
  if (methods.empty())
    throw InputError(InputKind::file, path + ": methods: expected the methods to search (methods, search.methods or --method), got none");
  for (const auto& m : methods) make_preset(m);
  std::vector<NetworkOption> networks = space.networks;
  if (networks.empty()) networks.push_back({.name = "", .sets = {}, .node_hour = 0.0, .node_hour_key = ""});
  std::vector<SweepAxis> sweep = space.sweep;
  sweep.insert(sweep.end(), request.sweep.begin(), request.sweep.end());

  std::map<std::string, std::size_t> workload_index;
  struct Skipped {
    Scenario scenario;
    std::size_t workload = 0;
    StateSharding sharding;
    std::string summary;
  };
  std::optional<Skipped> last_skipped;
  for (const NetworkOption& network : networks) {
    for (const std::string& method : methods) {
      std::vector<SweepAxis> axes;
      if (auto it = space.knobs.find(method); it != space.knobs.end()) axes = it->second;
      axes.insert(axes.end(), sweep.begin(), sweep.end());
      for (const auto& combination : sweep_combinations(axes, kMaxConfigurations)) {
        ScenarioOverrides overrides = request.base;
        overrides.sets.insert(overrides.sets.end(), network.sets.begin(), network.sets.end());
        overrides.sets.insert(overrides.sets.end(), combination.begin(), combination.end());
        Variant v;
        v.scenario = parse_scenario(text, path, overrides);
        v.scenario.methods = {method};
        v.scenario.gpus = gpus;
        for (int g : gpus) nodes_for(v.scenario.cluster, g);
        v.method = method;
        v.network = network.name;
        v.node_hour = network.node_hour.value_or(0);
        for (const auto& o : combination) {
          const std::string key = key_of(o.assignment);
          v.settings.emplace_back(key, o.assignment.substr(key.size() + 1));
        }
        const std::string wkey = workload_key(overrides.sets);
        auto [it, added] = workload_index.emplace(wkey, out.workloads.size());
        if (added) out.workloads.push_back(build_workload(v.scenario));
        v.workload = it->second;
        // A recommendation should run: left out where the estimate's centre is over the GPU's
        // memory; warned where only its interval's high end is. A sharded method's estimate
        // depends on the GPU count.
        const Workload& workload = out.workloads[v.workload].workload;
        const Strategy strategy = strategy_for(v.scenario, method);
        const MemoryFit whole = memory_fit(v.scenario, workload);
        for (int g : gpus) {
          const StateSharding sharding = state_sharding(strategy, sized_for(v.scenario.cluster, g));
          MemoryFit fit = sharded_fit(whole, workload, sharding);
          if (fit.needed_bytes() > fit.available_bytes) {
            ++out.skipped_memory;
            // The message names the last one; what would make it fit is worked out once, below.
            last_skipped = {v.scenario, v.workload, sharding, memory_summary(fit) + " (" + fit.gpu + ", " + method +
                                                                  " on " + std::to_string(g) + " GPUs"};
            continue;
          }
          if (std::string warning = memory_warning(fit); !warning.empty()) {
            ++out.warned_memory;
            out.example_warned = std::move(warning);
          }
          v.memory.emplace(g, std::move(fit));
        }
        if (v.memory.empty()) continue;
        out.variants.push_back(std::move(v));
        if (out.variants.size() * gpus.size() > kMaxConfigurations)
          throw InputError(InputKind::file, path + ": search: expected at most " + std::to_string(kMaxConfigurations) +
                               " configurations, got more");
      }
    }
  }
  if (last_skipped)
    out.largest_skipped = last_skipped->summary + "; would fit with " +
                          memory_knobs(last_skipped->scenario, out.workloads[last_skipped->workload].workload,
                                       last_skipped->sharding) +
                          ")";
  // A global batch keeps the configurations that step on exactly that many samples.
  const auto steps_on = [&](const Variant& v, int g) {
    const ModelSettings& m = v.scenario.model;
    return space.global_batch == 0 || static_cast<long long>(m.batch_per_gpu) * m.accumulation_steps * g == space.global_batch;
  };
  for (std::size_t v = 0; v < out.variants.size(); ++v)
    for (int g : gpus) {
      if (!out.variants[v].memory.count(g)) continue;
      if (steps_on(out.variants[v], g))
        out.configurations.emplace_back(v, g);
      else
        ++out.skipped_batch;
    }
  if (out.configurations.empty() && space.global_batch > 0)
    throw InputError(InputKind::file, path + ": search.global_batch: expected a batch some configuration steps on (micro-batch x "
                     "accumulation steps x GPUs), got " + std::to_string(space.global_batch) + ", which none does");
  out.unpriced = missing_price(out, path, networks);
  out.priced = out.unpriced.empty();
  if (!out.priced && (out.objective == Objective::cost || request.needs_prices || out.base.prices.given))
    throw InputError(InputKind::file, out.unpriced);
  if (!out.priced) out.gpu_prices.clear();
  return out;
}

namespace {

// A configuration's prediction (the work) priced by the search's prices (its plan).
Outcome priced(const Search& search, std::size_t index, PredictionRow row) {
  const auto [vi, gpus] = search.configurations[index];
  const Variant& v = search.variants[vi];
  Outcome o;
  o.variant = vi;
  o.row = std::move(row);
  o.row.settings = v.settings;
  o.row.memory = v.memory.at(gpus);
  o.servers = dedicated_servers(v, o.row.nodes, gpus);
  if (search.priced) {
    o.price_per_hour = gpus * search.gpu_prices.at(v.scenario.compute.gpu).per_hour + o.row.nodes * v.node_hour +
                       o.servers * (search.base.prices.server_hour.value_or(0) + v.node_hour);
    o.cost_per_million = o.price_per_hour / (o.row.throughput * 3600) * 1e6;
  }
  if (search.samples > 0) {
    o.train_s = search.samples / o.row.throughput;
    o.train_cost = o.price_per_hour * o.train_s / 3600;
  }
  return o;
}

}  // namespace

std::vector<PredictionRow> predict_configurations(const Search& search, const std::vector<std::size_t>& which,
                                                 int threads,
                                                 const std::function<void(std::size_t, std::size_t)>& progress) {
  const std::size_t total = which.size();
  std::vector<PredictionRow> out(total);
  std::vector<std::exception_ptr> errors(total);
  std::atomic<std::size_t> next{0}, done{0};
  std::atomic<bool> failed{false};
  const AnalyticalBackend backend;
  auto work = [&] {
    for (std::size_t i; !failed.load() && (i = next.fetch_add(1)) < total;) {
      try {
        const auto [vi, gpus] = search.configurations.at(which[i]);
        const Variant& v = search.variants[vi];
        out[i] = predict(v.scenario, search.workloads[v.workload].workload, v.method, gpus, backend).row;
      } catch (...) {
        errors[i] = std::current_exception();
        failed = true;
      }
      done.fetch_add(1);
    }
  };
  const int n = std::max(1, threads > 0 ? threads : static_cast<int>(std::thread::hardware_concurrency()));
  std::vector<std::thread> pool;
  for (int t = 0; t < n; ++t) pool.emplace_back(work);
  while (done.load() < total && !failed.load()) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    if (progress) progress(std::min(done.load(), total), total);
  }
  for (auto& t : pool) t.join();
  // The first error in search order, whichever thread met it first.
  for (const auto& e : errors)
    if (e) std::rethrow_exception(e);
  if (progress) progress(total, total);
  return out;
}

std::vector<Outcome> rank_configurations(const Search& search, std::vector<PredictionRow> rows) {
  const std::size_t total = search.configurations.size();
  if (rows.size() != total)
    throw std::logic_error("rank_configurations: " + std::to_string(rows.size()) + " rows for " +
                           std::to_string(total) + " configurations");
  std::vector<Outcome> out;
  out.reserve(total);
  for (std::size_t i = 0; i < total; ++i) out.push_back(priced(search, i, std::move(rows[i])));
  // Best first, ties in search order.
  std::vector<std::size_t> order(total);
  for (std::size_t i = 0; i < total; ++i) order[i] = i;
  auto better = [&](std::size_t a, std::size_t b) {
    const Outcome &x = out[a], &y = out[b];
    if (search.objective == Objective::cost) {
      if (x.cost_per_million != y.cost_per_million) return x.cost_per_million < y.cost_per_million;
    } else if (x.row.throughput != y.row.throughput) {
      return x.row.throughput > y.row.throughput;
    }
    return a < b;
  };
  std::stable_sort(order.begin(), order.end(), better);
  std::vector<Outcome> ranked;
  ranked.reserve(total);
  for (std::size_t i : order) ranked.push_back(std::move(out[i]));
  if (search.priced) mark_pareto_front(ranked);
  return ranked;
}

std::vector<Outcome> run_search(const Search& search, int threads,
                                const std::function<void(std::size_t, std::size_t)>& progress) {
  std::vector<std::size_t> all(search.configurations.size());
  for (std::size_t i = 0; i < all.size(); ++i) all[i] = i;
  return rank_configurations(search, predict_configurations(search, all, threads, progress));
}

void mark_pareto_front(std::vector<Outcome>& outcomes) {
  // Sweep by throughput, fastest first: a configuration is on the front when it is cheaper per
  // sample than every faster one (and than every equally fast one seen before it).
  std::vector<std::size_t> order(outcomes.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    if (outcomes[a].row.throughput != outcomes[b].row.throughput) return outcomes[a].row.throughput > outcomes[b].row.throughput;
    return outcomes[a].cost_per_million < outcomes[b].cost_per_million;
  });
  double cheapest = std::numeric_limits<double>::infinity();
  for (std::size_t i : order) {
    Outcome& o = outcomes[i];
    o.pareto = o.cost_per_million < cheapest;
    cheapest = std::min(cheapest, o.cost_per_million);
  }
}

}  // namespace scalecast::recommend
