// The cluster's figures, one table per block (fabric, network transport, parameter servers): each
// field once, with its scenario key, schedule key, member, unit, bounds, meaning and fit.
#pragma once

#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/types/cluster.h"
#include "sim/io/json_reader.h"
#include "sim/io/ranges.h"
#include "sim/io/yaml_reader.h"
#include "sim/types/quantities.h"

namespace scalecast {

// What a field holds and how it is written: a scenario states durations, rates and sizes with a
// unit (25us, 10Gbps, 40GB/s, 1MiB); a schedule in seconds, bytes/s and bytes.
enum class Unit {
  seconds,
  network_rate,  // bytes/s, written in Gbit/s
  fabric_rate,   // bytes/s, written in GB/s
  bytes,
  share,         // a plain number, a share of a peak rate
  count,
  flag,          // true or false
  choice,        // one of the names its meaning lists
  curve,         // a map of transfer sizes to shares of the bulk rate
};

// How calibration may fit a field: where it sits in the fitted vector, the range it may move in
// around the scenario's cluster, and the cluster it applies to.
struct Fit {
  int order = 0;  // fitted constants keep this order (the solver's vector and the reports)
  std::pair<double, double> (*range)(const Cluster& base) = nullptr;
  bool (*applies)(const Cluster& base) = nullptr;  // null: every cluster
  bool servers_only = false;                       // only where the runs have parameter servers
  double (*start)(const Cluster& c) = nullptr;     // the value the fit reads where not the field's own
};

// A figure of a block by its type: a plain number, or a quantity that carries its unit (one of
// the four members is set; none for a field with hooks of its own).
template <class Block>
struct RealMember {
  constexpr RealMember() noexcept {}
  constexpr RealMember(double Block::*m) noexcept : number(m) {}  // NOLINT: table entries convert
  constexpr RealMember(Seconds Block::*m) noexcept : time(m) {}   // NOLINT
  constexpr RealMember(Rate Block::*m) noexcept : rate(m) {}      // NOLINT
  constexpr RealMember(Bytes Block::*m) noexcept : size(m) {}     // NOLINT
  explicit operator bool() const { return number || time || rate || size; }

  double Block::*number = nullptr;
  Seconds Block::*time = nullptr;
  Rate Block::*rate = nullptr;
  Bytes Block::*size = nullptr;
};

// The figure in SI units (seconds, bytes/s, bytes), as schedules and calibration hold it.
template <class Block>
double si_figure(const Block& b, const RealMember<Block>& m) {
  if (m.time) return (b.*m.time).s();
  if (m.rate) return (b.*m.rate).bytes_per_s();
  if (m.size) return (b.*m.size).bytes();
  return m.number ? b.*m.number : 0;
}
template <class Block>
void set_si_figure(Block& b, const RealMember<Block>& m, double value) {
  if (m.time) b.*m.time = Seconds(value);
  if (m.rate) b.*m.rate = Rate(value);
  if (m.size) b.*m.size = Bytes(value);
  if (m.number) b.*m.number = value;
}

// One field of a cluster block `Block`. A field with a member is read and written by its unit;
// one with rules of its own (a catalog choice, a key that sets another) has hooks instead.
template <class Block>
struct Field {
  std::string_view scenario_key = {};  // key in a scenario's block; "": scenarios do not state it
  std::string_view schedule_key = {};  // key in a schedule's block; "": schedules do not record it
  Unit unit = Unit::share;
  // The member the field is, by its type (none where hooks read and write it).
  RealMember<Block> real = {};
  int Block::*whole = nullptr;
  bool Block::*flag = nullptr;
  // A flag a scenario states by name (Unit::choice): its names for false and true.
  std::string_view flag_off = {}, flag_on = {};
  std::string_view meaning = {};
  Bound (*bound)() = nullptr;  // seconds, rates, sizes and shares
  int min = 0, max = 0;        // counts
  // What 0 means where the scenario leaves the key out (it refuses 0); schedules record the 0.
  std::string_view zero = {};
  // A figure a built schedule's cluster can still take (a calibrated cluster file), not hardware.
  bool adjustable = false;
  // Absent in schedules written before it was recorded: read as the block's default.
  bool recorded_later = false;
  std::optional<Transport> only_with = {};  // a key of this transport's alone
  std::string_view only_with_why = {};      // the error where another transport states it
  std::optional<Fit> fit = {};
  // Rules of its own: reading the scenario's `value` (the block holds it, `c` is being built),
  // reading and writing the schedule's.
  void (*read_scenario)(const YamlReader& block, const YamlReader& value, Cluster& c) = nullptr;
  void (*read_schedule)(const JsonReader& value, Block& b) = nullptr;
  nlohmann::ordered_json (*write_schedule)(const Block& b) = nullptr;

  bool has_real() const { return static_cast<bool>(real); }
};

// A block's fields in the order schedules write them, under the keys that hold the block.
template <class Block>
struct FieldTable {
  std::string_view scenario_block;  // "network": cluster.network in a scenario
  std::string_view schedule_block;  // "net": cluster.net in a schedule
  Block Cluster::*block;
  std::vector<Field<Block>> fields;
};

const FieldTable<Fabric>& fabric_fields();
const FieldTable<TransportParams>& transport_fields();
const FieldTable<ParameterServers>& parameter_server_fields();

// The scenario keys of a table, in its order: all of them, or the adjustable figures alone.
template <class Block>
std::vector<std::string> scenario_keys(const FieldTable<Block>& table, bool adjustable_only);

// Reads the keys the scenario's block states into `c` (the block's own code reads those without a
// member or a hook: a fabric's kind), in the table's order.
template <class Block>
void read_scenario_fields(const FieldTable<Block>& table, const YamlReader& block, Cluster& c);

// The block as a schedule writes it, and read back strictly (every key the table records).
template <class Block>
nlohmann::ordered_json schedule_block_json(const FieldTable<Block>& table, const Block& b);
template <class Block>
Block schedule_block_from(const FieldTable<Block>& table, const JsonReader& j);

}  // namespace scalecast
