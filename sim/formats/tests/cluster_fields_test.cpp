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
