// Fluid max-min sharing: every flow's completion is reported exactly once, also when flows start
// and end at the same instant, and the rates are the max-min fair ones.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <random>
#include <stdexcept>
#include <vector>

#include "sim/backends/analytical/fair_share.h"

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
  EXPECT_THROW(links.add(0, 1e6, {{1, 1}}), std::logic_error);
  EXPECT_THROW(links.add(0, 1e6, {{2, 1}}), std::logic_error);
  EXPECT_THROW(links.add(0, 1e6, {}), std::logic_error);
  EXPECT_THROW(links.add(0, 1e6, {{0, 0}}), std::logic_error);
  EXPECT_THROW(links.add(0, 1e6, {{0, 1}}, -1), std::logic_error);
  EXPECT_FALSE(links.active());
}

// A per-flow reference: every flow its own class, rates by progressive filling from scratch at
// every event, no shortcuts. Its completion times are what the path-based, incremental
// FairShareLinks must reproduce.
struct ReferenceFlow {
  int tag;
  double left;
  std::vector<FairShareLinks::Use> uses;
  double cap;
  double rate = 0;
};

void reference_rates(const std::vector<double>& capacity, std::vector<ReferenceFlow>& flows) {
  std::vector<double> left = capacity;
  std::vector<char> frozen(flows.size(), 0);
  for (ReferenceFlow& f : flows) f.rate = 0;
  while (true) {
    std::vector<double> demand(capacity.size(), 0);
    for (size_t i = 0; i < flows.size(); ++i)
      if (!frozen[i])
        for (const auto& u : flows[i].uses) demand[u.link] += u.weight;
    double step = std::numeric_limits<double>::infinity();
    for (size_t l = 0; l < capacity.size(); ++l)
      if (demand[l] > 0) step = std::min(step, left[l] / demand[l]);
    for (size_t i = 0; i < flows.size(); ++i)
      if (!frozen[i] && flows[i].cap > 0) step = std::min(step, flows[i].cap - flows[i].rate);
    if (!(step < std::numeric_limits<double>::infinity())) return;
    for (size_t i = 0; i < flows.size(); ++i)
      if (!frozen[i]) flows[i].rate += step;
    for (size_t l = 0; l < capacity.size(); ++l) left[l] -= step * demand[l];
    for (size_t i = 0; i < flows.size(); ++i) {
      if (frozen[i]) continue;
      bool stop = flows[i].cap > 0 && flows[i].rate >= flows[i].cap * (1 - 1e-12);
      for (const auto& u : flows[i].uses) stop = stop || left[u.link] <= 1e-12 * capacity[u.link];
      frozen[i] = stop;
    }
  }
}

TEST(FairShare, CompletionTimesMatchAPerFlowReferenceOnRandomWorkloads) {
  std::mt19937_64 rng(20261124);
  std::uniform_real_distribution<double> unit(0, 1);
  for (int trial = 0; trial < 300; ++trial) {
    const int link_count = 1 + static_cast<int>(rng() % 6);
    std::vector<double> capacity;
    for (int l = 0; l < link_count; ++l) capacity.push_back(1 + 99 * unit(rng));
    // A handful of routes (as a PS network has: pushes, pulls, a node stage), each flow on one.
    struct Route {
      std::vector<FairShareLinks::Use> uses;
      double cap;
    };
    std::vector<Route> routes;
    const int route_count = 1 + static_cast<int>(rng() % 6);
    for (int r = 0; r < route_count; ++r) {
      Route route;
      for (int l = 0; l < link_count; ++l)
        if (rng() % 2 == 0 || (l == link_count - 1 && route.uses.empty()))
          route.uses.push_back({l, std::vector<double>{0.5, 1, 2}[rng() % 3]});
      route.cap = rng() % 3 == 0 ? 2 + 30 * unit(rng) : 0;
      routes.push_back(route);
    }
    // Flows arriving in batches, some at the same instant, some as others end.
    std::vector<std::pair<double, ReferenceFlow>> arrivals;
    double t = 0;
    for (int tag = 0; tag < 40; ++tag) {
      if (rng() % 3 != 0) t += 2 * unit(rng);
      const Route& route = routes[rng() % routes.size()];
      arrivals.push_back({t, {tag, 1 + 50 * unit(rng), route.uses, route.cap}});
    }
    FairShareLinks links(capacity);
    std::map<int, double> got;
    size_t next = 0;
    while (next < arrivals.size() || links.active()) {
      const double arrival = next < arrivals.size() ? arrivals[next].first : std::numeric_limits<double>::infinity();
      const double now = std::min(arrival, links.next_completion());
      for (int tag : links.advance(now)) got.emplace(tag, now);
      while (next < arrivals.size() && arrivals[next].first == now) {
        const ReferenceFlow& f = arrivals[next++].second;
        links.add(f.tag, f.left, std::span<const FairShareLinks::Use>(f.uses), f.cap);
      }
    }
    std::map<int, double> want;
    std::vector<ReferenceFlow> flows;
    double clock = 0;
    next = 0;
    while (next < arrivals.size() || !flows.empty()) {
      reference_rates(capacity, flows);
      double now = next < arrivals.size() ? arrivals[next].first : std::numeric_limits<double>::infinity();
      for (const ReferenceFlow& f : flows) now = std::min(now, clock + f.left / f.rate);
      for (ReferenceFlow& f : flows) f.left -= f.rate * (now - clock);
      clock = now;
      std::erase_if(flows, [&](const ReferenceFlow& f) {
        const bool ends = f.left <= 1e-9 * std::max(1.0, f.rate);
        if (ends) want.emplace(f.tag, clock);
        return ends;
      });
      while (next < arrivals.size() && arrivals[next].first == now) flows.push_back(arrivals[next++].second);
    }
    ASSERT_EQ(got.size(), want.size()) << "trial " << trial;
    for (const auto& [tag, at] : want)
      ASSERT_NEAR(got.at(tag), at, 1e-7 * std::max(1.0, at)) << "trial " << trial << ", flow " << tag;
  }
}

TEST(FairShare, TimeNeverMovesBack) {
  FairShareLinks links({1e9});
  links.advance(1);
  EXPECT_THROW(links.advance(0.5), std::logic_error);
}

}  // namespace
}  // namespace scalecast
