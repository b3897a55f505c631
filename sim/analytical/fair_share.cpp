// Progressive filling: raise every unfrozen flow's rate together until some link saturates,
// freeze the flows crossing it, repeat. Flows on the same path are filled as one class, so a
// refill costs links x paths, however many flows are in flight; most refills only check that the
// paths a change left alone keep their rates.
#include "sim/analytical/fair_share.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace scalecast {

FairShareLinks::FairShareLinks(std::vector<double> capacities)
    : capacity_(std::move(capacities)), left_(capacity_.size(), 0), demand_(capacity_.size(), 0),
      top_rate_(capacity_.size(), 0), in_use_(capacity_.size(), 0) {}

void FairShareLinks::add(int tag, double bytes, std::span<const Use> uses, double cap) {
  // No advance here: a flow that completes at this instant must be reported by the caller's
  // advance(), not dropped by this one.
  if (!std::isfinite(bytes) || bytes < 0) throw std::invalid_argument("flow of " + std::to_string(bytes) + " bytes");
  if (uses.empty()) throw std::invalid_argument("flow over no link");
  if (!(cap >= 0) || !std::isfinite(cap)) throw std::invalid_argument("flow cap of " + std::to_string(cap) + " B/s");
  for (const Use& u : uses)
    if (u.link < 0 || u.link >= static_cast<int>(capacity_.size()) || !(capacity_[u.link] > 0) || !(u.weight > 0))
      throw std::invalid_argument("flow over link " + std::to_string(u.link) + ", which cannot carry it");
  auto same = [&](const Path& p) {
    if (static_cast<std::size_t>(p.uses) != uses.size() || p.cap != cap) return false;
    const std::span<const Use> mine = uses_of(p);
    for (std::size_t i = 0; i < uses.size(); ++i)
      if (mine[i].link != uses[i].link || mine[i].weight != uses[i].weight) return false;
    return true;
  };
  auto it = std::find_if(paths_.begin(), paths_.end(), same);
  if (it == paths_.end()) {
    it = paths_.insert(paths_.end(), Path{});
    it->first_use = static_cast<int>(uses_.size());
    it->uses = static_cast<int>(uses.size());
    it->cap = cap;
    uses_.insert(uses_.end(), uses.begin(), uses.end());
  }
  if (since_ != now_) catch_up();
  it->finishing.emplace_back(it->work + bytes, tag);
  std::push_heap(it->finishing.begin(), it->finishing.end(), std::greater<>());
  ++flows_;
  stale_ = true;
}

void FairShareLinks::catch_up() {
  const double dt = now_ - since_;
  since_ = now_;
  if (dt > 0)
    for (int i : active_) paths_[i].work += paths_[i].rate * dt;
}

const std::vector<int>& FairShareLinks::advance(double now) {
  done_.clear();
  if (std::isnan(now) || now < now_) throw std::logic_error("fair-share links moved back in time");
  refresh_rates();
  now_ = now;
  // Nothing can end before the next completion (a flow ends within a nanosecond of it at most):
  // the paths' work is carried forward only when something may.
  if (now + 1e-8 < next_) return done_;
  catch_up();
  for (int i : active_) {
    Path& p = paths_[i];
    // A flow within a nanosecond of its end (rounding of the times) is complete, and so is one
    // whose end is closer than the clock can tell apart from now (times of 1e9 s and more).
    const double slack = 1e-9 * std::max(1.0, p.rate);
    auto ends_now = [&](double left) { return left <= slack || now_ + left / p.rate <= now_; };
    while (!p.finishing.empty() && ends_now(p.finishing.front().first - p.work)) {
      done_.push_back(p.finishing.front().second);
      std::pop_heap(p.finishing.begin(), p.finishing.end(), std::greater<>());
      p.finishing.pop_back();
      --flows_;
    }
  }
  if (!done_.empty()) stale_ = true;
  return done_;
}

void FairShareLinks::recompute_rates() {
  catch_up();
  active_.clear();
  for (std::size_t i = 0; i < paths_.size(); ++i) {
    Path& p = paths_[i];
    if (p.finishing.empty()) {
      p.rate = 0;
      p.solved_flows = 0;
    } else {
      active_.push_back(static_cast<int>(i));
    }
  }
  if (!reuse_rates()) fill_rates();
  next_ = std::numeric_limits<double>::infinity();
  for (int i : active_) {
    Path& p = paths_[i];
    p.solved_flows = p.finishing.size();
    if (p.rate > 0) next_ = std::min(next_, now_ + (p.finishing.front().first - p.work) / p.rate);
  }
}

void FairShareLinks::start_filling() {
  used_links_.clear();
  for (int i : active_)
    for (const Use& u : uses_of(paths_[i]))
      if (!in_use_[u.link]) {
        in_use_[u.link] = 1;
        used_links_.push_back(u.link);
        left_[u.link] = capacity_[u.link];
        demand_[u.link] = 0;
      }
}

void FairShareLinks::end_filling() {
  for (int l : used_links_) in_use_[l] = 0;
}

void FairShareLinks::fill(std::vector<int>& unfrozen) {
  for (int i : unfrozen)
    for (const Use& u : uses_of(paths_[i]))
      demand_[u.link] += u.weight * static_cast<double>(paths_[i].finishing.size());
  while (true) {
    // Freeze the paths at their cap or crossing a saturated link; they demand no more.
    std::size_t kept = 0;
    for (int i : unfrozen) {
      const Path& p = paths_[i];
      bool frozen = p.cap > 0 && p.rate >= p.cap * (1 - 1e-12);
      for (const Use& u : uses_of(p)) frozen = frozen || saturated(u.link);
      if (!frozen) {
        unfrozen[kept++] = i;
        continue;
      }
      for (const Use& u : uses_of(p)) demand_[u.link] -= u.weight * static_cast<double>(p.finishing.size());
    }
    unfrozen.resize(kept);
    if (unfrozen.empty()) return;
    // The smallest equal increment that saturates a link or brings a path to its cap. A saturated
    // link carries no unfrozen path (they froze with it); what demand it shows is rounding left
    // by the frozen paths' weights, and would make the increment 0 for ever.
    double step = std::numeric_limits<double>::infinity();
    for (int l : used_links_)
      if (demand_[l] > 0 && !saturated(l)) step = std::min(step, left_[l] / demand_[l]);
    for (int i : unfrozen)
      if (paths_[i].cap > 0) step = std::min(step, paths_[i].cap - paths_[i].rate);
    if (!(step < std::numeric_limits<double>::infinity())) return;
    for (int i : unfrozen) paths_[i].rate += step;
    for (int l : used_links_) left_[l] -= step * demand_[l];
  }
}

void FairShareLinks::fill_rates() {
  for (int i : active_) paths_[i].rate = 0;
  start_filling();
  unfrozen_ = active_;
  fill(unfrozen_);
  end_filling();
}

bool FairShareLinks::reuse_rates() {
  start_filling();
  unfrozen_.clear();
  for (int i : active_) {
    Path& p = paths_[i];
    if (p.solved_flows != p.finishing.size()) {
      p.rate = 0;
      unfrozen_.push_back(i);
      continue;
    }
    for (const Use& u : uses_of(p)) left_[u.link] -= u.weight * static_cast<double>(p.finishing.size()) * p.rate;
  }
  bool max_min = false;
  if (unfrozen_.size() < active_.size()) {
    bool feasible = true;
    for (int l : used_links_) {
      feasible = feasible && left_[l] >= -1e-9 * capacity_[l];
      left_[l] = std::max(0.0, left_[l]);
    }
    if (feasible) {
      fill(unfrozen_);
      max_min = is_max_min();
    }
  }
  end_filling();
  return max_min;
}

bool FairShareLinks::is_max_min() {
  constexpr double kTolerance = 1e-9;
  for (int l : used_links_) {
    left_[l] = capacity_[l];
    top_rate_[l] = 0;
  }
  for (int i : active_) {
    const Path& p = paths_[i];
    for (const Use& u : uses_of(p)) {
      left_[u.link] -= u.weight * static_cast<double>(p.finishing.size()) * p.rate;
      top_rate_[u.link] = std::max(top_rate_[u.link], p.rate);
    }
  }
  for (int l : used_links_)
    if (left_[l] < -kTolerance * capacity_[l]) return false;
  for (int i : active_) {
    const Path& p = paths_[i];
    if (p.cap > 0 && p.rate > p.cap * (1 + kTolerance)) return false;
    bool bottlenecked = p.cap > 0 && p.rate >= p.cap * (1 - kTolerance);
    for (const Use& u : uses_of(p))
      bottlenecked = bottlenecked || (saturated(u.link, kTolerance) && p.rate >= top_rate_[u.link] * (1 - kTolerance));
    if (!bottlenecked) return false;
  }
  return true;
}

}  // namespace scalecast
