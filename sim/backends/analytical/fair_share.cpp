// Progressive filling: raise every unfrozen flow's rate together until some link saturates,
// freeze the flows crossing it, repeat. Flows on the same path are filled as one class, so a
// refill costs links x paths, however many flows are in flight; most refills only check that the
// paths a change left alone keep their rates.
#include "sim/backends/analytical/fair_share.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace scalecast {

namespace {
double finish_time(double now, double rate, double left) {
  return rate > 0 ? now + left / rate : std::numeric_limits<double>::infinity();
}
}  // namespace

FairShareLinks::FairShareLinks(std::vector<double> capacities)
    : capacity_(std::move(capacities)), load_(capacity_.size(), 0), link_paths_(capacity_.size()),
      left_(capacity_.size(), 0), demand_(capacity_.size(), 0), in_use_(capacity_.size(), 0),
      witnessed_(capacity_.size(), 0) {}

void FairShareLinks::add(int tag, double bytes, std::span<const Use> uses, double cap) {
  // No advance here: a flow that completes at this instant must be reported by the caller's
  // advance(), not dropped by this one.
  if (!std::isfinite(bytes) || bytes < 0) throw std::logic_error("flow of " + std::to_string(bytes) + " bytes");
  if (uses.empty()) throw std::logic_error("flow over no link");
  if (!(cap >= 0) || !std::isfinite(cap)) throw std::logic_error("flow cap of " + std::to_string(cap) + " B/s");
  for (const Use& u : uses)
    if (u.link < 0 || u.link >= static_cast<int>(capacity_.size()) || !(capacity_[u.link] > 0) || !(u.weight > 0))
      throw std::logic_error("flow over link " + std::to_string(u.link) + ", which cannot carry it");
  auto same = [&](const Path& p) {
    if (static_cast<std::size_t>(p.uses) != uses.size() || p.cap != cap) return false;
    const std::span<const Use> mine = uses_of(p);
    for (std::size_t i = 0; i < uses.size(); ++i)
      if (mine[i].link != uses[i].link || mine[i].weight != uses[i].weight) return false;
    return true;
  };
  auto it = std::find_if(paths_.begin(), paths_.end(), same);
  if (it == paths_.end()) {
    const int id = static_cast<int>(paths_.size());
    it = paths_.insert(paths_.end(), Path{});
    it->first_use = static_cast<int>(uses_.size());
    it->uses = static_cast<int>(uses.size());
    it->cap = cap;
    it->since = now_;
    uses_.insert(uses_.end(), uses.begin(), uses.end());
    for (const Use& u : uses) link_paths_[u.link].push_back(id);
  }
  settle(*it);
  it->finishing.emplace_back(it->work + bytes, tag);
  std::push_heap(it->finishing.begin(), it->finishing.end(), std::greater<>());
  touch(static_cast<int>(it - paths_.begin()));
  ++flows_;
  stale_ = true;
}

void FairShareLinks::settle(Path& p) {
  if (p.since != now_) p.work += p.rate * (now_ - p.since);
  p.since = now_;
}

const std::vector<int>& FairShareLinks::advance(double now) {
  done_.clear();
  if (std::isnan(now) || now < now_) throw std::logic_error("fair-share links moved back in time");
  refresh_rates();
  now_ = now;
  // A flow ends within a nanosecond of its path's finish_at at the latest: only paths that close
  // to now need their work carried forward.
  if (now + 1e-8 < next_) return done_;
  for (int i : active_) {
    Path& p = paths_[i];
    if (now + 1e-8 < p.finish_at) continue;
    settle(p);
    // A flow within a nanosecond of its end (rounding of the times) is complete, and so is one
    // whose end is closer than the clock can tell apart from now (times of 1e9 s and more).
    const double slack = 1e-9 * std::max(1.0, p.rate);
    auto ends_now = [&](double left) { return left <= slack || now_ + left / p.rate <= now_; };
    while (!p.finishing.empty() && ends_now(p.finishing.front().first - p.work)) {
      done_.push_back(p.finishing.front().second);
      std::pop_heap(p.finishing.begin(), p.finishing.end(), std::greater<>());
      p.finishing.pop_back();
      touch(i);
      --flows_;
    }
  }
  if (!done_.empty()) stale_ = true;
  return done_;
}

void FairShareLinks::recompute_rates() {
  changed_.clear();
  for (int i : touched_) {
    const Path& p = paths_[i];
    if (p.finishing.size() == p.solved_flows) continue;
    changed_.push_back(i);
    const auto at = std::lower_bound(active_.begin(), active_.end(), i);
    const bool listed = at != active_.end() && *at == i;
    if (p.finishing.empty() && listed) active_.erase(at);
    if (!p.finishing.empty() && !listed) active_.insert(at, i);
  }
  constexpr int kMostUpdatesInPlace = 1024;
  if (++updates_since_refill_ > kMostUpdatesInPlace || !update_changed()) refill_all();
  // A flow that ended and one that started on the same path leave its rate but not its next end.
  for (int i : touched_) {
    Path& p = paths_[i];
    p.touched = false;
    if (!p.finishing.empty()) p.finish_at = finish_time(now_, p.rate, p.finishing.front().first - p.work);
  }
  touched_.clear();
  next_ = std::numeric_limits<double>::infinity();
  for (int i : active_) next_ = std::min(next_, paths_[i].finish_at);
}

void FairShareLinks::touch(int path) {
  if (!paths_[path].touched) touched_.push_back(path);
  paths_[path].touched = true;
}

bool FairShareLinks::update_changed() {
  unfrozen_.clear();
  for (int i : changed_) {
    Path& p = paths_[i];
    settle(p);
    for (const Use& u : uses_of(p)) load_[u.link] -= u.weight * static_cast<double>(p.solved_flows) * p.rate;
    p.rate = 0;
    p.solved_flows = p.finishing.size();
    if (p.finishing.empty())
      set_witness(p, kInactive);
    else
      unfrozen_.push_back(i);
  }
  if (unfrozen_.size() == 1) {
    paths_[unfrozen_.front()].rate = rate_alone(paths_[unfrozen_.front()]);
  } else {
    start_filling(changed_);
    fill(unfrozen_);
    for (int l : used_links_) in_use_[l] = 0;
  }
  for (int i : changed_) {
    const Path& p = paths_[i];
    for (const Use& u : uses_of(p)) load_[u.link] += u.weight * static_cast<double>(p.solved_flows) * p.rate;
  }
  for (int i : changed_)
    if (!paths_[i].finishing.empty() && !find_witness(paths_[i])) return false;
  // Paths left alone keep a bottleneck on any link no changed path crosses (its load and the
  // rates across it are as they were); those whose bottleneck a changed path crosses need a new
  // look.
  for (int c : changed_)
    for (const Use& u : uses_of(paths_[c])) {
      if (witnessed_[u.link] == 0 && unwitnessed_ == 0) continue;
      for (int i : link_paths_[u.link]) {
        Path& p = paths_[i];
        if ((p.witness == u.link || p.witness == kNoWitness) && !find_witness(p)) return false;
      }
    }
  return true;
}

double FairShareLinks::rate_alone(const Path& p) const {
  double rate = p.cap > 0 ? p.cap : std::numeric_limits<double>::infinity();
  for (const Use& u : uses_of(p)) {
    const double left = std::max(0.0, capacity_[u.link] - load_[u.link]);
    if (left <= 1e-12 * capacity_[u.link]) return 0;
    rate = std::min(rate, left / (u.weight * static_cast<double>(p.finishing.size())));
  }
  return rate;
}

void FairShareLinks::refill_all() {
  updates_since_refill_ = 0;
  for (Path& p : paths_) {
    settle(p);
    p.rate = 0;
    p.solved_flows = p.finishing.size();
    if (p.finishing.empty()) set_witness(p, kInactive);
  }
  std::fill(load_.begin(), load_.end(), 0.0);
  start_filling(active_);
  unfrozen_ = active_;
  fill(unfrozen_);
  for (int l : used_links_) in_use_[l] = 0;
  for (int i : active_) {
    Path& p = paths_[i];
    for (const Use& u : uses_of(p)) load_[u.link] += u.weight * static_cast<double>(p.solved_flows) * p.rate;
    p.finish_at = finish_time(now_, p.rate, p.finishing.front().first - p.work);
  }
  // The filling is max-min by construction; a path whose bottleneck the tolerance below cannot
  // see is looked at again whenever a change touches one of its links.
  for (int i : active_) find_witness(paths_[i]);
}

bool FairShareLinks::find_witness(Path& p) {
  constexpr double kTolerance = 1e-9;
  if (p.cap > 0 && p.rate >= p.cap * (1 - kTolerance)) {
    set_witness(p, kAtCap);
    return true;
  }
  for (const Use& u : uses_of(p)) {
    if (capacity_[u.link] - load_[u.link] > kTolerance * capacity_[u.link]) continue;
    double top = 0;  // paths without flows have no rate
    for (int i : link_paths_[u.link]) top = std::max(top, paths_[i].rate);
    if (p.rate >= top * (1 - kTolerance)) {
      set_witness(p, u.link);
      return true;
    }
  }
  set_witness(p, kNoWitness);
  return false;
}

void FairShareLinks::set_witness(Path& p, int witness) {
  if (p.witness >= 0) --witnessed_[p.witness];
  if (p.witness == kNoWitness) --unwitnessed_;
  p.witness = witness;
  if (witness >= 0) ++witnessed_[witness];
  if (witness == kNoWitness) ++unwitnessed_;
}

void FairShareLinks::start_filling(const std::vector<int>& paths) {
  used_links_.clear();
  for (int i : paths)
    for (const Use& u : uses_of(paths_[i]))
      if (!in_use_[u.link]) {
        in_use_[u.link] = 1;
        used_links_.push_back(u.link);
        left_[u.link] = std::max(0.0, capacity_[u.link] - load_[u.link]);
        demand_[u.link] = 0;
      }
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

}  // namespace scalecast
