// Padded micro-batch lengths: a batch padded to its longest sequence, drawn from one bin of a
// length histogram; the weights, the grouping and the limits (one bin, bins of one token).
#include <gtest/gtest.h>

#include <vector>

#include "sim/catalogs/sequence_lengths.h"
#include "sim/compute/padded_lengths.h"

namespace scalecast {
namespace {

double mean_length(const std::vector<WeightedLength>& lengths) {
  double tokens = 0;
  for (const auto& w : lengths) tokens += w.weight * w.length;
  return tokens;
}

double total_weight(const std::vector<WeightedLength>& lengths) {
  double sum = 0;
  for (const auto& w : lengths) sum += w.weight;
  return sum;
}

LengthHistogram two_lengths() {
  // Half the samples 8 tokens long, half 64: max_length 64.
  LengthHistogram h{.name = "test", .description = "", .max_length = 64, .samples = std::vector<int64_t>(64, 0),
                    .source = ""};
  h.samples[7] = 1;
  h.samples[63] = 1;
  return h;
}

TEST(PaddedLengths, OneBinPadsToTheLongestOfTheBatch) {
  const LengthHistogram h = two_lengths();
  // One sequence: its own length. Two: both short a quarter of the time.
  const auto one = padded_lengths(h, 1, 0);
  ASSERT_EQ(one.size(), 2u);
  EXPECT_EQ(one[0].length, 8);
  EXPECT_DOUBLE_EQ(one[0].weight, 0.5);
  EXPECT_EQ(one[1].length, 64);
  const auto two = padded_lengths(h, 2, 0);
  ASSERT_EQ(two.size(), 2u);
  EXPECT_DOUBLE_EQ(two[0].weight, 0.25);
  EXPECT_DOUBLE_EQ(two[1].weight, 0.75);
}

TEST(PaddedLengths, BinsKeepShortSequencesTogether) {
  // Bins of 32 tokens: a batch of any size is all short or all long, each half the time.
  const auto binned = padded_lengths(two_lengths(), 16, 32);
  ASSERT_EQ(binned.size(), 2u);
  EXPECT_DOUBLE_EQ(binned[0].weight, 0.5);
  EXPECT_DOUBLE_EQ(binned[1].weight, 0.5);
  EXPECT_DOUBLE_EQ(mean_length(binned), 36);
}

TEST(PaddedLengths, WikipediaPhaseTwoBatches) {
  const LengthHistogram& wikipedia = find_length_histogram("wikipedia-bert-512");
  // Bins of one token remove all padding: the set's mean length, half of 512 ("a 2x speed-up").
  const auto unpadded = padded_lengths(wikipedia, 32, 1);
  EXPECT_NEAR(mean_length(unpadded), wikipedia.mean_length(), 0.5);
  // One bin: nearly every batch of 32 holds one of the 23% samples cut at 512.
  const auto one_bin = padded_lengths(wikipedia, 32, 0);
  EXPECT_GT(mean_length(one_bin), 511);
  // LDDL's bins of 64 tokens: each batch padded within its bin, a little above the mean length.
  const auto lddl = padded_lengths(wikipedia, 32, 64);
  EXPECT_GT(mean_length(lddl), wikipedia.mean_length());
  EXPECT_LT(mean_length(lddl), wikipedia.mean_length() + 32);
  for (const auto* lengths : {&unpadded, &one_bin, &lddl}) {
    EXPECT_NEAR(total_weight(*lengths), 1, 1e-12);
    for (size_t i = 1; i < lengths->size(); ++i) EXPECT_GT((*lengths)[i].length, (*lengths)[i - 1].length);
  }
  // Lengths are timed in groups of kPaddedLengthGroup tokens.
  EXPECT_LE(lddl.size(), static_cast<size_t>(512 / kPaddedLengthGroup));
}

}  // namespace
}  // namespace scalecast
