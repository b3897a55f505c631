// The `search:` and `prices:` sections of a scenario, read strictly: every value list is a list
// of scalars (as --set would take them), every price bounded, every method a known preset.
#include "sim/scenario/search_space.h"

#include <limits>
#include <stdexcept>

#include "sim/io/input_error.h"
#include "sim/io/yaml_reader.h"

namespace scalecast {

Objective parse_objective(const std::string& text) {
  if (text == "throughput") return Objective::throughput;
  if (text == "time") return Objective::time;
  if (text == "cost") return Objective::cost;
  throw InputError("unknown objective '" + text + "' (known: throughput, time, cost)");
}

std::string to_string(Objective o) {
  switch (o) {
    case Objective::throughput: return "throughput";
    case Objective::time: return "time";
    case Objective::cost: return "cost";
  }
  return "?";
}

namespace {

// A list of scalars, each as text (a single scalar is a list of one).
std::vector<std::string> value_texts(const YamlReader& v) {
  if (v.is_scalar()) return {v.string()};
  return v.string_list();
}

// A map of key path -> values: one sweep axis per key, its origin the key's line.
std::vector<SweepAxis> axes(const YamlReader& map) {
  std::vector<SweepAxis> out;
  for (const auto& [key, values] : map.entries("a map of scenario key paths to lists of values")) {
    SweepAxis a;
    a.key = key.string();
    a.values = value_texts(values);
    a.origin = values.where();
    out.push_back(std::move(a));
  }
  return out;
}

NetworkOption read_network_option(const YamlReader& n) {
  n.check_keys({"name", "set", "node_hour"});
  NetworkOption o;
  o.name = n.require("name").string();
  for (const auto& [key, value] : n.require("set").entries("a map of scenario key paths to values"))
    o.sets.push_back({key.string() + "=" + value.string(), value.where()});
  if (auto v = n.optional("node_hour")) o.node_hour = v->number(ranges::price());
  o.node_hour_key = n.where() + " " + n.key_path() + ".node_hour";
  return o;
}

}  // namespace

Prices read_prices(const YamlReader& p) {
  p.check_keys({"currency", "gpu_hour", "server_hour", "provider", "pricing"});
  Prices out;
  out.given = true;
  if (auto v = p.optional("currency")) out.currency = v->string();
  // The catalog's prices are in USD: in another currency the section prices the GPUs itself.
  const std::optional<YamlReader> gpu = out.currency == "USD" ? p.optional("gpu_hour") : p.require("gpu_hour");
  if (gpu && gpu->is_scalar()) {
    out.gpu_hour["*"] = gpu->number(ranges::price());
  } else if (gpu) {
    for (const auto& [key, value] : gpu->entries("a price, or a map of GPU (or '*') to price"))
      out.gpu_hour[key.string()] = value.number(ranges::price());
  }
  if (auto v = p.optional("server_hour")) out.server_hour = v->number(ranges::price());
  if (auto v = p.optional("provider")) out.provider = v->choice("a provider of the price catalog", price_providers());
  if (auto v = p.optional("pricing")) out.pricing = parse_pricing(v->choice("a pricing", pricing_names()));
  return out;
}

SearchSpace read_search(const YamlReader& s, const std::vector<std::string>& methods) {
  s.check_keys({"objective", "samples", "gpus", "methods", "networks", "knobs", "sweep", "global_batch"});
  SearchSpace out;
  out.given = true;
  if (auto v = s.optional("objective")) out.objective = parse_objective(v->choice("an objective", {"throughput", "time", "cost"}));
  if (auto v = s.optional("samples")) out.samples = v->number(ranges::samples());
  if (auto v = s.optional("gpus")) out.gpus = v->int_list(1, ranges::kMaxGpus);
  if (auto v = s.optional("methods")) out.methods = v->choice_list("a method", methods);
  if (auto v = s.optional("networks")) {
    for (const YamlReader& n : v->items("a non-empty list of networks (name, set, node_hour)")) {
      NetworkOption o = read_network_option(n);
      for (const NetworkOption& before : out.networks)
        if (before.name == o.name) n.require("name").fail("a name no other network has");
      out.networks.push_back(std::move(o));
    }
  }
  if (auto v = s.optional("knobs")) {
    for (const auto& [method, knobs] : v->entries("a map of method to its knobs")) {
      const std::string name = method.choice("a method", methods);
      out.knobs[name] = axes(knobs);
    }
  }
  if (auto v = s.optional("sweep")) out.sweep = axes(*v);
  if (auto v = s.optional("global_batch")) out.global_batch = v->integer(1, std::numeric_limits<int>::max());
  return out;
}

}  // namespace scalecast
