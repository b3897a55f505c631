// What `scalecast recommend` searches and how it ranks what it finds: a scenario's `search:`
// (GPU counts, networks, methods, each method's knobs, other swept keys) and `prices:`.
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "sim/sweep.h"

namespace scalecast {

class YamlReader;

enum class Objective {
  throughput,  // the most samples/s
  time,        // the shortest time to train search.samples (the same order, stated in hours)
  cost,        // the lowest price per million samples
};
Objective parse_objective(const std::string& text);  // throws std::invalid_argument
std::string to_string(Objective o);

// Prices per hour, in one currency: of a GPU (its share of the server: CPU, memory, fabric), of
// a node's NIC class (per network option), and of a dedicated parameter-server machine.
struct Prices {
  bool given = false;
  std::string currency = "USD";
  std::map<std::string, double> gpu_hour;  // by catalog GPU ("*": any GPU not named)
  double server_hour = 0;                   // a dedicated server machine, without its NIC
  // Throws std::invalid_argument when the price list names neither the GPU nor "*".
  double gpu_price(const std::string& gpu) const;
};

// One network a buyer could buy: the scenario keys it sets and its price per node-hour.
struct NetworkOption {
  std::string name;
  std::vector<ScenarioOverride> sets;  // cluster.network.* and the like, origin: its file line
  double node_hour = 0;
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
};

// Readers of the two sections (called by the scenario reader). `methods`: the known presets.
Prices read_prices(const YamlReader& section);
SearchSpace read_search(const YamlReader& section, const std::vector<std::string>& methods);

}  // namespace scalecast
