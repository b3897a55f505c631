// Progressive filling: raise every unfrozen flow's rate together until some link saturates,
// freeze the flows crossing it, repeat. Flows on the same path are filled as one class, so a
// refill costs links x paths, however many flows are in flight.
#include "sim/analytical/fair_share.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace scalecast {

FairShareLinks::FairShareLinks(std::vector<double> capacities) : capacity_(std::move(capacities)) {}

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
  if (it == paths_.end()) it = paths_.insert(paths_.end(), Path{std::move(uses), cap});
  ++it->flows;
  flows_.push_back({tag, bytes, static_cast<int>(it - paths_.begin())});
  recompute_rates();
}

double FairShareLinks::next_completion() const {
  double best = std::numeric_limits<double>::infinity();
  for (const Flow& f : flows_)
    if (f.rate > 0) best = std::min(best, now_ + f.remaining / f.rate);
  return best;
}

std::vector<int> FairShareLinks::advance(double now) {
  std::vector<int> done;
  if (std::isnan(now) || now < now_) throw std::logic_error("fair-share links moved back in time");
  if (now > now_) {
    const double dt = now - now_;
    for (Flow& f : flows_) f.remaining -= f.rate * dt;
    now_ = now;
  }
  // A flow within a part in a billion of its end (rounding of the times) is complete.
  auto finished = [](const Flow& f) { return f.remaining <= 1e-9 * std::max(1.0, f.remaining + f.rate); };
  for (const Flow& f : flows_)
    if (finished(f) || f.remaining <= 0) done.push_back(f.tag);
  if (!done.empty()) {
    for (const Flow& f : flows_)
      if (finished(f) || f.remaining <= 0) --paths_[f.path].flows;
    flows_.erase(std::remove_if(flows_.begin(), flows_.end(),
                                [&](const Flow& f) { return finished(f) || f.remaining <= 0; }),
                 flows_.end());
    recompute_rates();
  }
  return done;
}

void FairShareLinks::recompute_rates() {
  std::vector<double> left = capacity_;
  std::vector<bool> frozen(paths_.size(), false);
  size_t unfrozen = 0;
  for (size_t i = 0; i < paths_.size(); ++i) {
    paths_[i].rate = 0;
    frozen[i] = paths_[i].flows == 0;
    if (!frozen[i]) ++unfrozen;
  }
  while (unfrozen > 0) {
    // Weighted demand of the unfrozen paths' flows on each link, and the smallest equal
    // increment that saturates one of them.
    std::vector<double> demand(capacity_.size(), 0);
    for (size_t i = 0; i < paths_.size(); ++i)
      if (!frozen[i])
        for (const Use& u : paths_[i].uses) demand[u.link] += u.weight * paths_[i].flows;
    double step = std::numeric_limits<double>::infinity();
    for (size_t l = 0; l < capacity_.size(); ++l)
      if (demand[l] > 0) step = std::min(step, left[l] / demand[l]);
    for (size_t i = 0; i < paths_.size(); ++i)
      if (!frozen[i] && paths_[i].cap > 0) step = std::min(step, paths_[i].cap - paths_[i].rate);
    if (!(step < std::numeric_limits<double>::infinity())) break;
    for (size_t i = 0; i < paths_.size(); ++i)
      if (!frozen[i]) paths_[i].rate += step;
    for (size_t l = 0; l < capacity_.size(); ++l) left[l] -= step * demand[l];
    for (size_t i = 0; i < paths_.size(); ++i) {
      if (frozen[i]) continue;
      if (paths_[i].cap > 0 && paths_[i].rate >= paths_[i].cap * (1 - 1e-12)) {
        frozen[i] = true;
        --unfrozen;
        continue;
      }
      for (const Use& u : paths_[i].uses)
        if (left[u.link] <= 1e-12 * capacity_[u.link]) {
          frozen[i] = true;
          --unfrozen;
          break;
        }
    }
  }
  for (Flow& f : flows_) f.rate = paths_[f.path].rate;
}

}  // namespace scalecast
