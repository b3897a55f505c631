// The lengths a micro-batch is padded to when its sequences come from a dataset's length histogram
// and each batch is padded to its longest sequence, drawn from one length bin (LDDL's binning).
#pragma once

#include <vector>

#include "sim/catalogs/sequence_lengths.h"

namespace scalecast {

// Tokens per quadrature group: padded lengths within one group are timed at their mean.
inline constexpr int kPaddedLengthGroup = 8;

struct WeightedLength {
  int length = 0;       // tokens the micro-batch is padded to
  double weight = 0;    // the share of micro-batches padded to it (the weights sum to 1)
};

// The distribution of the padded length of a batch of `batch` sequences drawn at random from the
// histogram, all from one bin of `bin` tokens (bin k holds lengths k*bin+1 .. (k+1)*bin, picked
// with the share of samples it holds, as LDDL's loader does; bin 0: one bin, the whole set),
// padded to the batch's longest: P(longest <= l | bin) = F_bin(l)^batch. Lengths are grouped by
// kPaddedLengthGroup tokens, each group at its weighted mean length, shortest first; groups of
// less than a millionth of the batches are left out.
std::vector<WeightedLength> padded_lengths(const LengthHistogram& histogram, int batch, int bin);

}  // namespace scalecast
