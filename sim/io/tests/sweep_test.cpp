// Sweep axes: the command-line form is read strictly, and the combinations are the cartesian
// product in a fixed order (first axis slowest), as predict --sweep and recommend expand them.
#include <gtest/gtest.h>

#include "sim/io/input_error.h"
#include "sim/io/sweep.h"

namespace scalecast {
namespace {

std::vector<std::string> assignments(const std::vector<ScenarioOverride>& combination) {
  std::vector<std::string> out;
  for (const auto& o : combination) out.push_back(o.assignment);
  return out;
}

TEST(Sweep, ReadsKeyAndValuesInOrder) {
  const SweepAxis a = parse_sweep_axis("cluster.network.bandwidth=25Gbps,100Gbps,400Gbps");
  EXPECT_EQ(a.key, "cluster.network.bandwidth");
  EXPECT_EQ(a.values, (std::vector<std::string>{"25Gbps", "100Gbps", "400Gbps"}));
  EXPECT_EQ(a.origin, "--sweep");
}

TEST(Sweep, RefusesMalformedAxes) {
  for (const char* bad : {"cluster.network.bandwidth", "=1,2", "k=", "k=1,,2", "k=1,", "k=1,1"})
    EXPECT_THROW(parse_sweep_axis(bad), InputError) << bad;
}

TEST(Sweep, CombinationsAreTheCartesianProductFirstAxisSlowest) {
  const auto c = sweep_combinations({parse_sweep_axis("a=1,2"), parse_sweep_axis("b=x,y,z")});
  ASSERT_EQ(c.size(), 6u);
  EXPECT_EQ(assignments(c[0]), (std::vector<std::string>{"a=1", "b=x"}));
  EXPECT_EQ(assignments(c[1]), (std::vector<std::string>{"a=1", "b=y"}));
  EXPECT_EQ(assignments(c[3]), (std::vector<std::string>{"a=2", "b=x"}));
  EXPECT_EQ(assignments(c[5]), (std::vector<std::string>{"a=2", "b=z"}));
  EXPECT_EQ(c[0][0].origin, "--sweep");
}

TEST(Sweep, NoAxesIsOneEmptyCombination) {
  const auto c = sweep_combinations({});
  ASSERT_EQ(c.size(), 1u);
  EXPECT_TRUE(c[0].empty());
}

TEST(Sweep, RefusesAKeyTwiceAndTooManyCombinations) {
  EXPECT_THROW(sweep_combinations({parse_sweep_axis("a=1,2"), parse_sweep_axis("a=3")}), InputError);
  EXPECT_THROW(sweep_combinations({parse_sweep_axis("a=1,2,3"), parse_sweep_axis("b=1,2,3")}, 8), InputError);
  EXPECT_EQ(sweep_combinations({parse_sweep_axis("a=1,2,3"), parse_sweep_axis("b=1,2,3")}, 9).size(), 9u);
}

}  // namespace
}  // namespace scalecast
