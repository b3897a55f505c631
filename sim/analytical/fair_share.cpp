// Progressive filling: raise every unfrozen flow's rate together until some link saturates,
// freeze the flows crossing it, repeat. Completions are found from the resulting rates.
#include "sim/analytical/fair_share.h"

#include <algorithm>
#include <limits>

namespace scalecast {

FairShareLinks::FairShareLinks(std::vector<double> capacities) : capacity_(std::move(capacities)) {}

void FairShareLinks::add(double now, int tag, double bytes, std::vector<Use> uses) {
  advance(now);
  flows_.push_back({tag, bytes, std::move(uses)});
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
    flows_.erase(std::remove_if(flows_.begin(), flows_.end(),
                                [&](const Flow& f) { return finished(f) || f.remaining <= 0; }),
                 flows_.end());
    recompute_rates();
  }
  return done;
}

void FairShareLinks::recompute_rates() {
  std::vector<double> left = capacity_;
  std::vector<bool> frozen(flows_.size(), false);
  for (Flow& f : flows_) f.rate = 0;
  size_t unfrozen = flows_.size();
  while (unfrozen > 0) {
    // Weighted demand of the unfrozen flows on each link, and the smallest equal increment
    // that saturates one of them.
    std::vector<double> demand(capacity_.size(), 0);
    for (size_t i = 0; i < flows_.size(); ++i)
      if (!frozen[i])
        for (const Use& u : flows_[i].uses) demand[u.link] += u.weight;
    double step = std::numeric_limits<double>::infinity();
    for (size_t l = 0; l < capacity_.size(); ++l)
      if (demand[l] > 0) step = std::min(step, left[l] / demand[l]);
    if (!(step < std::numeric_limits<double>::infinity())) break;
    for (size_t i = 0; i < flows_.size(); ++i)
      if (!frozen[i]) flows_[i].rate += step;
    for (size_t l = 0; l < capacity_.size(); ++l) left[l] -= step * demand[l];
    for (size_t i = 0; i < flows_.size(); ++i) {
      if (frozen[i]) continue;
      for (const Use& u : flows_[i].uses)
        if (left[u.link] <= 1e-12 * capacity_[u.link]) {
          frozen[i] = true;
          --unfrozen;
          break;
        }
    }
  }
}

}  // namespace scalecast
