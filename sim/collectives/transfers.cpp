// Totals over an expansion's transfers, for the tests and the replay's statistics.
#include "sim/collectives/transfers.h"

namespace scalecast::collectives {

double Expansion::total_bytes() const {
  double sum = 0;
  for (const auto& step : steps)
    for (const auto& t : step) sum += t.bytes;
  return sum;
}

std::size_t Expansion::transfer_count() const {
  std::size_t n = 0;
  for (const auto& step : steps) n += step.size();
  return n;
}

}  // namespace scalecast::collectives
