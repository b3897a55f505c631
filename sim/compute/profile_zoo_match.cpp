// Matches zoo layers to profile rows by their module path, or the longest dotted prefix of it
// that the profile names (docs/MODEL.md, "Profiles").
#include "sim/compute/profile_zoo_match.h"

#include <map>
#include <string>

namespace scalecast {

std::vector<std::vector<std::size_t>> match_zoo_layers(const Workload& profile, const Workload& zoo) {
  std::map<std::string, std::size_t> row_of;
  for (std::size_t i = 0; i < profile.layers.size(); ++i) row_of.emplace(profile.layers[i].name, i);
  std::vector<std::vector<std::size_t>> out(profile.layers.size());
  for (std::size_t z = 0; z < zoo.layers.size(); ++z) {
    std::string name = zoo.layers[z].name;
    while (true) {
      const auto it = row_of.find(name);
      if (it != row_of.end()) {
        out[it->second].push_back(z);
        break;
      }
      const std::size_t dot = name.rfind('.');
      if (dot == std::string::npos) break;
      name.resize(dot);
    }
  }
  return out;
}

}  // namespace scalecast
