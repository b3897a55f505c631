// Fluid max-min sharing: every flow's completion is reported exactly once, also when flows start
// and end at the same instant, and the rates are the max-min fair ones.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <stdexcept>

#include "sim/analytical/fair_share.h"

namespace scalecast {
namespace {

// Advances to each next completion until no flow is left; tag -> completion time.
std::map<int, double> drain(FairShareLinks& links) {
  std::map<int, double> done;
  while (links.active()) {
    const double t = links.next_completion();
    for (int tag : links.advance(t)) EXPECT_TRUE(done.emplace(tag, t).second) << "tag " << tag << " twice";
  }
  return done;
}

TEST(FairShare, AFlowEndingAsAnotherStartsIsReported) {
  // A 4-byte flow at 10 GB/s ends within the rounding tolerance of its start; starting a second
  // flow at that instant used to drop the first one's completion (a task that never ended).
  FairShareLinks links({1e10});
  links.add(1, 4, {{0, 1}});
  links.add(2, 1e6, {{0, 1}});
  const auto done = drain(links);
  ASSERT_EQ(done.size(), 2u);
  EXPECT_LT(done.at(1), 1e-8);
  EXPECT_NEAR(done.at(2), (1e6 + 4) / 1e10, 1e-15);  // the link carried both flows' bytes
}

TEST(FairShare, RoundingLeftOnASaturatedLinkDoesNotStallTheFilling) {
  // Link 0 saturates with weights 0.1 and 0.2, whose demand does not return to exactly 0 when
  // both are frozen (0.1 + 0.2 - 0.1 - 0.2 = 2.8e-17) while none of the link is left: the
  // filling must still raise the flow on link 1 to its capacity instead of stepping by 0.
  FairShareLinks links({1, 10});
  links.add(1, 1, {{0, 0.1}});
  links.add(2, 1, {{0, 0.2}});
  links.add(3, 20, {{1, 1}});
  const auto done = drain(links);
  ASSERT_EQ(done.size(), 3u);
  EXPECT_NEAR(done.at(1), 0.3, 1e-12);  // both at 1 / 0.3 B/s
  EXPECT_NEAR(done.at(3), 2, 1e-12);
}

TEST(FairShare, MaxMinRatesAcrossTwoLinks) {
  // Flows a (link 0, capacity 4), b (links 0 and 1), c (link 1, capacity 3): link 1 saturates
  // first, so b and c get 1.5 each and a takes the 2.5 that b leaves of link 0.
  FairShareLinks links({4, 3});
  links.add(0, 2.5, {{0, 1}});
  links.add(1, 1.5, {{0, 1}, {1, 1}});
  links.add(2, 1.5, {{1, 1}});
  const auto done = drain(links);
  EXPECT_NEAR(done.at(0), 1.0, 1e-12);
  EXPECT_NEAR(done.at(1), 1.0, 1e-12);
  EXPECT_NEAR(done.at(2), 1.0, 1e-12);
}

TEST(FairShare, APerFlowCapLeavesTheRestOfTheLinkToOthers) {
  // Two flows on a 10 B/s link, one capped at 2 B/s (a TCP stream limit): 2 and 8, not 5 and 5;
  // two capped flows together fill what one cannot.
  FairShareLinks links({10});
  links.add(0, 2, {{0, 1}}, 2);
  links.add(1, 8, {{0, 1}});
  auto done = drain(links);
  EXPECT_NEAR(done.at(0), 1.0, 1e-12);
  EXPECT_NEAR(done.at(1), 1.0, 1e-12);
  links.add(2, 4, {{0, 1}}, 4);
  links.add(3, 4, {{0, 1}}, 4);
  done = drain(links);
  EXPECT_NEAR(done.at(2), 2.0, 1e-12);  // 4 B/s each from t = 1: the link has room for both
  EXPECT_NEAR(done.at(3), 2.0, 1e-12);
}

TEST(FairShare, FlowsThatCouldNeverEndAreRefused) {
  FairShareLinks links({1e9, 0});
  EXPECT_THROW(links.add(0, 1e6, {{1, 1}}), std::invalid_argument);
  EXPECT_THROW(links.add(0, 1e6, {{2, 1}}), std::invalid_argument);
  EXPECT_THROW(links.add(0, 1e6, {}), std::invalid_argument);
  EXPECT_THROW(links.add(0, 1e6, {{0, 0}}), std::invalid_argument);
  EXPECT_THROW(links.add(0, 1e6, {{0, 1}}, -1), std::invalid_argument);
  EXPECT_FALSE(links.active());
}

TEST(FairShare, TimeNeverMovesBack) {
  FairShareLinks links({1e9});
  links.advance(1);
  EXPECT_THROW(links.advance(0.5), std::logic_error);
}

}  // namespace
}  // namespace scalecast
