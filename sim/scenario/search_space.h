// What `scalecast recommend` searches and how it ranks what it finds: a scenario's `search:`
// (GPU counts, networks, methods, each method's knobs, other swept keys) and `prices:`.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "sim/catalogs/price_catalog.h"
#include "sim/io/sweep.h"

namespace scalecast {

class YamlReader;

enum class Objective {
  throughput,  // the most samples/s
  time,        // the shortest time to train search.samples (the same order, stated in hours)
  cost,        // the lowest price per million samples
};
Objective parse_objective(const std::string& text);  // throws an InputError
std::string to_string(Objective o);

// Prices per hour, in one currency: of a GPU (its share of the server: CPU, memory, fabric), of
// a node's NIC class (per network option), and of a dedicated parameter-server machine. A GPU
// the section does not price is priced from the price catalog (sim/catalogs/price_catalog.h).
struct Prices {
  bool given = false;                       // the scenario has a prices: section
  std::string currency = "USD";
  std::map<std::string, double> gpu_hour;  // by catalog GPU ("*": any GPU not named)
  std::optional<double> server_hour;        // a dedicated server machine, without its NIC
  std::string provider;                     // catalog prices of this provider only ("": any)
  Pricing pricing = Pricing::on_demand;     // which catalog prices
};

// One network a buyer could buy: the scenario keys it sets and its price per node-hour.
struct NetworkOption {
  std::string name;
  std::vector<ScenarioOverride> sets;  // cluster.network.* and the like, origin: its file line
  std::optional<double> node_hour;
  std::string node_hour_key;           // "FILE:LINE: search.networks[1].node_hour", for errors
};

struct SearchSpace {
  bool given = false;
  Objective objective = Objective::throughput;
  double samples = 0;                  // a training run's samples, for time and cost (0: unset)
  std::vector<int> gpus;               // empty: the scenario's
  std::vector<std::string> methods;    // empty: the scenario's
  std::vector<NetworkOption> networks; // empty: the scenario's network alone
  std::map<std::string, std::vector<SweepAxis>> knobs;  // per method: its knobs' values
  std::vector<SweepAxis> sweep;        // keys tried for every configuration
  // Samples per optimizer step that every configuration must train with (micro-batch x
  // accumulation steps x GPUs): the others are left out. 0: any.
  long long global_batch = 0;
};

// Readers of the two sections (called by the scenario reader). `methods`: the known presets.
Prices read_prices(const YamlReader& section);
SearchSpace read_search(const YamlReader& section, const std::vector<std::string>& methods);

}  // namespace scalecast
