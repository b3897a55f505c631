// The cluster field tables: keys given once, fit orders distinct, and docs/CLUSTER_KEYS.md as the
// tables write it.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>

#include "sim/formats/cluster_fields.h"
#include "sim/formats/cluster_keys_doc.h"

namespace scalecast {
namespace {

template <class Block>
void expect_keys_once(const FieldTable<Block>& table, std::set<int>& fit_orders) {
  std::set<std::string_view> scenario, schedule;
  for (const auto& f : table.fields) {
    EXPECT_FALSE(f.scenario_key.empty() && f.schedule_key.empty()) << f.meaning;
    EXPECT_FALSE(f.meaning.empty()) << f.scenario_key;
    if (!f.scenario_key.empty()) {
      EXPECT_TRUE(scenario.insert(f.scenario_key).second) << f.scenario_key;
    }
    if (!f.schedule_key.empty()) {
      EXPECT_TRUE(schedule.insert(f.schedule_key).second) << f.schedule_key;
    }
    if (f.fit) {
      EXPECT_TRUE(fit_orders.insert(f.fit->order).second) << f.scenario_key;
    }
  }
}

TEST(ClusterFields, KeysOnceAndFitOrdersDistinct) {
  std::set<int> fit_orders;
  expect_keys_once(fabric_fields(), fit_orders);
  expect_keys_once(transport_fields(), fit_orders);
  expect_keys_once(parameter_server_fields(), fit_orders);
}

// A figure's member carries the unit the field reads and writes: a duration is Seconds, a rate
// Rate, a size Bytes, a plain number a double; and it goes through SI units and back unchanged.
template <class Block>
void expect_units_match_members(const FieldTable<Block>& table) {
  for (const auto& f : table.fields) {
    if (!f.has_real()) continue;
    const bool time = f.unit == Unit::seconds;
    const bool rate = f.unit == Unit::network_rate || f.unit == Unit::fabric_rate;
    const bool size = f.unit == Unit::bytes;
    EXPECT_EQ(f.real.time != nullptr, time) << f.scenario_key;
    EXPECT_EQ(f.real.rate != nullptr, rate) << f.scenario_key;
    EXPECT_EQ(f.real.size != nullptr, size) << f.scenario_key;
    EXPECT_EQ(f.real.number != nullptr, !time && !rate && !size) << f.scenario_key;
    Block b;
    set_si_figure(b, f.real, 0.375);
    EXPECT_EQ(si_figure(b, f.real), 0.375) << f.scenario_key;
  }
}

TEST(ClusterFields, MembersCarryTheUnitsTheirFieldsRead) {
  expect_units_match_members(fabric_fields());
  expect_units_match_members(transport_fields());
  expect_units_match_members(parameter_server_fields());
  Cluster c;
  set_si_figure(c.net, RealMember<TransportParams>(&TransportParams::latency), 25e-6);
  EXPECT_EQ(c.net.latency, Seconds(25e-6));
  set_si_figure(c.fabric, RealMember<Fabric>(&Fabric::link_bandwidth), 40e9);
  EXPECT_EQ(c.fabric.link_bandwidth, Rate(40e9));
}

TEST(ClusterKeysDoc, MatchesTheTables) {
  const std::string path = std::string(SCALECAST_SOURCE_DIR) + "/docs/CLUSTER_KEYS.md";
  const std::string written = cluster_keys_markdown();
  if (std::getenv("SCALECAST_WRITE_DOCS")) std::ofstream(path) << written;
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  EXPECT_EQ(text.str(), written) << path << " differs from the field tables: SCALECAST_WRITE_DOCS=1 "
                                 << "build/sim/scalecast_tests --gtest_filter='ClusterKeysDoc*' rewrites it";
}

}  // namespace
}  // namespace scalecast
