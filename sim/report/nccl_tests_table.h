// nccl-tests' result table as its tests print it (src/common.cu, util.cu at v2.19.6): sizes and
// counts of a -b/-e/-f sweep, the header with a row of units, out-of-place and in-place columns,
// numbers fitted to its widths, and the average bus bandwidth, so that tools reading nccl-tests
// output read a prediction too.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "sim/collectives/collective_ops.h"

namespace scalecast {

struct NcclTestsSize {
  double bytes = 0;   // the size column: the whole buffer for all-gather, reduce-scatter, all-to-all
  double count = 0;   // the count column: per rank for all-gather and reduce-scatter, per peer for all-to-all
};

// Bytes of one element of nccl-tests' -d type (int8, uint8, half, bfloat16, float, int32, ...);
// throws an InputError naming the known types.
int nccl_tests_type_bytes(const std::string& type);
// The sizes of a sweep from `min` to `max` by `factor` (or `increment` when factor is 1), each
// rounded as nccl-tests rounds its counts for the operation on `ranks` ranks.
std::vector<NcclTestsSize> nccl_tests_sizes(collectives::CollectiveOp op, double min, double max, double factor,
                                            double increment, int type_bytes, int ranks);

struct NcclTestsLine {
  NcclTestsSize size;
  double time_us = 0;
};

// The table and its footer; `comments` are printed first as '#' lines.
void write_nccl_tests_table(std::ostream& out, collectives::CollectiveOp op, const std::string& type, int ranks,
                            const std::vector<NcclTestsLine>& rows, const std::vector<std::string>& comments);

// nccl-tests' number in a field of `width`: %.2f, else %.1f, %.0f, then %.1e.
std::string nccl_tests_number(double value, int width);

}  // namespace scalecast
