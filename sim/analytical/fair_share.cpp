// Progressive filling: raise every unfrozen flow's rate together until some link saturates,
// freeze the flows crossing it, repeat. Flows on the same path are filled as one class, so a
// refill costs links x paths, however many flows are in flight, and so does an advance.
#include "sim/analytical/fair_share.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace scalecast {

FairShareLinks::FairShareLinks(std::vector<double> capacities)
    : capacity_(std::move(capacities)), left_(capacity_.size(), 0), demand_(capacity_.size(), 0),
      in_use_(capacity_.size(), 0) {}

void FairShareLinks::add(int tag, double bytes, std::vector<Use> uses, double cap) {
  // No advance here: a flow that completes at this instant must be reported by the caller's
  // advance(), not dropped by this one.
  if (!std::isfinite(bytes) || bytes < 0) throw std::invalid_argument("flow of " + std::to_string(bytes) + " bytes");
  if (uses.empty()) throw std::invalid_argument("flow over no link");
  if (!(cap >= 0) || !std::isfinite(cap)) throw std::invalid_argument("flow cap of " + std::to_string(cap) + " B/s");
  for (const Use& u : uses)
    if (u.link < 0 || u.link >= static_cast<int>(capacity_.size()) || !(capacity_[u.link] > 0) || !(u.weight > 0))
      throw std::invalid_argument("flow over link " + std::to_string(u.link) + ", which cannot carry it");
  auto same = [&](const Path& p) {
    if (p.uses.size() != uses.size() || p.cap != cap) return false;
    for (size_t i = 0; i < uses.size(); ++i)
      if (p.uses[i].link != uses[i].link || p.uses[i].weight != uses[i].weight) return false;
    return true;
  };
  auto it = std::find_if(paths_.begin(), paths_.end(), same);
  if (it == paths_.end()) {
    it = paths_.insert(paths_.end(), Path{});
    it->uses = std::move(uses);
    it->cap = cap;
  }
  it->finishing.push({it->work + bytes, tag});
  ++flows_;
  stale_ = true;
}

double FairShareLinks::next_completion() {
  refresh_rates();
  double best = std::numeric_limits<double>::infinity();
  for (int i : active_) {
    const Path& p = paths_[i];
    if (!p.finishing.empty() && p.rate > 0) best = std::min(best, now_ + (p.finishing.top().first - p.work) / p.rate);
  }
  return best;
}

const std::vector<int>& FairShareLinks::advance(double now) {
  done_.clear();
  if (std::isnan(now) || now < now_) throw std::logic_error("fair-share links moved back in time");
  refresh_rates();
  const double dt = now - now_;
  now_ = now;
  for (int i : active_) {
    Path& p = paths_[i];
    if (p.finishing.empty()) continue;
    p.work += p.rate * dt;
    // A flow within a nanosecond of its end (rounding of the times) is complete, and so is one
    // whose end is closer than the clock can tell apart from now (times of 1e9 s and more).
    const double slack = 1e-9 * std::max(1.0, p.rate);
    auto ends_now = [&](double left) { return left <= slack || now_ + left / p.rate <= now_; };
    while (!p.finishing.empty() && ends_now(p.finishing.top().first - p.work)) {
      done_.push_back(p.finishing.top().second);
      p.finishing.pop();
      --flows_;
    }
  }
  if (!done_.empty()) stale_ = true;
  return done_;
}

size_t FairShareLinks::KeyHash::operator()(const std::vector<std::uint64_t>& key) const {
  std::uint64_t h = 1469598103934665603ull;  // FNV-1a over the words
  for (std::uint64_t w : key) h = (h ^ w) * 1099511628211ull;
  return static_cast<size_t>(h);
}

void FairShareLinks::recompute_rates() {
  active_.clear();
  key_.clear();
  for (size_t i = 0; i < paths_.size(); ++i) {
    Path& p = paths_[i];
    p.rate = 0;
    if (p.finishing.empty()) continue;
    active_.push_back(static_cast<int>(i));
    key_.push_back(static_cast<std::uint64_t>(i) << 32 | p.finishing.size());
  }
  if (const auto known = known_rates_.find(key_); known != known_rates_.end()) {
    for (size_t k = 0; k < active_.size(); ++k) paths_[active_[k]].rate = known->second[k];
    return;
  }
  fill_rates();
  constexpr size_t kMaxKnown = 1 << 14;  // a bound on the memory a long run's mixes take
  if (known_rates_.size() >= kMaxKnown) known_rates_.clear();
  std::vector<double>& rates = known_rates_[key_];
  for (int i : active_) rates.push_back(paths_[i].rate);
}

void FairShareLinks::fill_rates() {
  // The links the active paths use, with the unfrozen demand on each.
  used_links_.clear();
  for (int i : active_) {
    const Path& p = paths_[i];
    for (const Use& u : p.uses) {
      if (!in_use_[u.link]) {
        in_use_[u.link] = 1;
        used_links_.push_back(u.link);
        left_[u.link] = capacity_[u.link];
        demand_[u.link] = 0;
      }
      demand_[u.link] += u.weight * static_cast<double>(p.finishing.size());
    }
  }
  unfrozen_ = active_;
  while (!unfrozen_.empty()) {
    // The smallest equal increment that saturates a link or brings a path to its cap. A saturated
    // link carries no unfrozen path (they froze with it); what demand it shows is rounding left
    // by the frozen paths' weights, and would make the increment 0 for ever.
    double step = std::numeric_limits<double>::infinity();
    for (int l : used_links_)
      if (demand_[l] > 0 && !saturated(l)) step = std::min(step, left_[l] / demand_[l]);
    for (int i : unfrozen_)
      if (paths_[i].cap > 0) step = std::min(step, paths_[i].cap - paths_[i].rate);
    if (!(step < std::numeric_limits<double>::infinity())) break;
    for (int i : unfrozen_) paths_[i].rate += step;
    for (int l : used_links_) left_[l] -= step * demand_[l];
    // Freeze the paths at their cap or crossing a saturated link; they demand no more.
    size_t kept = 0;
    for (int i : unfrozen_) {
      const Path& p = paths_[i];
      bool frozen = p.cap > 0 && p.rate >= p.cap * (1 - 1e-12);
      for (const Use& u : p.uses) frozen = frozen || saturated(u.link);
      if (!frozen) {
        unfrozen_[kept++] = i;
        continue;
      }
      for (const Use& u : p.uses) demand_[u.link] -= u.weight * static_cast<double>(p.finishing.size());
    }
    unfrozen_.resize(kept);
  }
  for (int l : used_links_) in_use_[l] = 0;
}

}  // namespace scalecast
