// Padded micro-batch lengths from a length histogram: per bin, the distribution of the longest of
// `batch` draws, grouped into kPaddedLengthGroup-token groups for timing.
#include "sim/compute/padded_lengths.h"

#include <algorithm>
#include <cmath>

namespace scalecast {
namespace {

// Groups holding less than this share of micro-batches are left out (the rest renormalised): they
// change no printed digit and would each cost a compute-model pass.
constexpr double kNegligibleShare = 1e-6;

}  // namespace

std::vector<WeightedLength> padded_lengths(const LengthHistogram& histogram, int batch, int bin) {
  const int max_length = histogram.max_length;
  const int width = bin > 0 ? std::min(bin, max_length) : max_length;
  const double total = static_cast<double>(histogram.total());
  // P(the batch is padded to length l), l = 1 .. max_length.
  std::vector<double> padded(max_length + 1, 0.0);
  for (int first = 1; first <= max_length; first += width) {
    const int last = std::min(first + width - 1, max_length);
    double in_bin = 0;
    for (int l = first; l <= last; ++l) in_bin += static_cast<double>(histogram.samples[l - 1]);
    if (in_bin == 0) continue;
    double below = 0;  // F_bin(l - 1)
    for (int l = first; l <= last; ++l) {
      const double upto = below + static_cast<double>(histogram.samples[l - 1]) / in_bin;
      padded[l] += in_bin / total * (std::pow(upto, batch) - std::pow(below, batch));
      below = upto;
    }
  }
  std::vector<WeightedLength> out;
  for (int first = 1; first <= max_length; first += kPaddedLengthGroup) {
    double weight = 0, tokens = 0;
    for (int l = first; l < first + kPaddedLengthGroup && l <= max_length; ++l) {
      weight += padded[l];
      tokens += padded[l] * l;
    }
    if (weight > kNegligibleShare) out.push_back({static_cast<int>(std::lround(tokens / weight)), weight});
  }
  double kept = 0;
  for (const auto& w : out) kept += w.weight;
  for (auto& w : out) w.weight /= kept;
  return out;
}

}  // namespace scalecast
