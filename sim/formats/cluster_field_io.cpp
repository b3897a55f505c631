// Reading a scenario's cluster blocks, and writing and reading a schedule's, by the field tables
// (sim/formats/cluster_fields.h): each field by its unit, or by its own hooks.
#include "sim/formats/cluster_fields.h"

namespace scalecast {
namespace {

// A schedule records the 0 a scenario leaves the key out for.
template <class Block>
Bound schedule_bound(const Field<Block>& f) {
  Bound b = f.bound();
  if (!f.zero.empty() && !b.zero_allowed) {
    b.zero_allowed = true;
    b.text = "0 or " + b.describe();
  }
  return b;
}

template <class Block>
void read_scenario_value(const Field<Block>& f, const YamlReader& v, Block& b) {
  if (f.whole) {
    b.*f.whole = v.integer(f.min, f.max);
  } else if (f.flag) {
    b.*f.flag = v.boolean();
  } else if (f.has_real()) {
    switch (f.unit) {
      case Unit::seconds: set_si_figure(b, f.real, v.duration(f.bound())); break;
      case Unit::network_rate:
      case Unit::fabric_rate: set_si_figure(b, f.real, v.rate(f.bound())); break;
      case Unit::bytes: set_si_figure(b, f.real, v.bytes(f.bound())); break;
      default: set_si_figure(b, f.real, v.number(f.bound())); break;
    }
  }
}

}  // namespace

template <class Block>
std::vector<std::string> scenario_keys(const FieldTable<Block>& table, bool adjustable_only) {
  std::vector<std::string> keys;
  for (const auto& f : table.fields)
    if (!f.scenario_key.empty() && (f.adjustable || !adjustable_only)) keys.emplace_back(f.scenario_key);
  return keys;
}

template <class Block>
void read_scenario_fields(const FieldTable<Block>& table, const YamlReader& block, Cluster& c) {
  for (const auto& f : table.fields) {
    if (f.scenario_key.empty()) continue;
    const auto v = block.optional(std::string(f.scenario_key));
    if (!v) continue;
    if (f.only_with && c.transport != *f.only_with) v->fail(std::string(f.only_with_why));
    if (f.read_scenario)
      f.read_scenario(block, *v, c);
    else
      read_scenario_value(f, *v, c.*table.block);
  }
}

template <class Block>
nlohmann::ordered_json schedule_block_json(const FieldTable<Block>& table, const Block& b) {
  nlohmann::ordered_json out = nlohmann::ordered_json::object();
  for (const auto& f : table.fields) {
    if (f.schedule_key.empty()) continue;
    const std::string key(f.schedule_key);
    if (f.write_schedule)
      out[key] = f.write_schedule(b);
    else if (f.has_real())
      out[key] = si_figure(b, f.real);
    else if (f.whole)
      out[key] = b.*f.whole;
    else if (f.flag)
      out[key] = b.*f.flag;
  }
  return out;
}

template <class Block>
Block schedule_block_from(const FieldTable<Block>& table, const JsonReader& j) {
  std::vector<std::string> keys;
  for (const auto& f : table.fields)
    if (!f.schedule_key.empty()) keys.emplace_back(f.schedule_key);
  j.check_keys(keys);
  Block b;
  for (const auto& f : table.fields) {
    if (f.schedule_key.empty()) continue;
    const std::string key(f.schedule_key);
    if (f.recorded_later && !j.has(key)) continue;
    const JsonReader v = j.require(key);
    if (f.read_schedule)
      f.read_schedule(v, b);
    else if (f.has_real())
      set_si_figure(b, f.real, v.number(schedule_bound(f)));
    else if (f.whole)
      b.*f.whole = v.integer(f.zero.empty() ? f.min : 0, f.max);
    else if (f.flag)
      b.*f.flag = v.boolean();
  }
  return b;
}

template std::vector<std::string> scenario_keys(const FieldTable<Fabric>&, bool);
template void read_scenario_fields(const FieldTable<Fabric>&, const YamlReader&, Cluster&);
template nlohmann::ordered_json schedule_block_json(const FieldTable<Fabric>&, const Fabric&);
template Fabric schedule_block_from(const FieldTable<Fabric>&, const JsonReader&);
template std::vector<std::string> scenario_keys(const FieldTable<TransportParams>&, bool);
template void read_scenario_fields(const FieldTable<TransportParams>&, const YamlReader&, Cluster&);
template nlohmann::ordered_json schedule_block_json(const FieldTable<TransportParams>&, const TransportParams&);
template TransportParams schedule_block_from(const FieldTable<TransportParams>&, const JsonReader&);
template std::vector<std::string> scenario_keys(const FieldTable<ParameterServers>&, bool);
template void read_scenario_fields(const FieldTable<ParameterServers>&, const YamlReader&, Cluster&);
template nlohmann::ordered_json schedule_block_json(const FieldTable<ParameterServers>&, const ParameterServers&);
template ParameterServers schedule_block_from(const FieldTable<ParameterServers>&, const JsonReader&);

}  // namespace scalecast
