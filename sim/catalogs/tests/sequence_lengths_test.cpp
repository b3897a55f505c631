// The sequence-length histograms: their sizes as the packing study's code holds them, the
// Wikipedia set's padding share its paper states, and the error for an unknown name.
#include <gtest/gtest.h>

#include <string>

#include "sim/catalogs/sequence_lengths.h"
#include "sim/io/input_error.h"

namespace scalecast {
namespace {

TEST(SequenceLengths, HistogramsHoldThePublishedSamples) {
  const LengthHistogram& wikipedia = find_length_histogram("wikipedia-bert-512");
  EXPECT_EQ(wikipedia.max_length, 512);
  ASSERT_EQ(wikipedia.samples.size(), 512u);
  EXPECT_EQ(wikipedia.total(), 16279552);  // "the Wikipedia dataset of over 16M sequences"
  EXPECT_EQ(wikipedia.samples.back(), 3815044);
  const LengthHistogram& squad = find_length_histogram("squad-1.1-384");
  EXPECT_EQ(squad.max_length, 384);
  ASSERT_EQ(squad.samples.size(), 384u);
  EXPECT_EQ(squad.total(), 88641);
  for (const auto& h : length_histograms()) {
    EXPECT_EQ(static_cast<int>(h.samples.size()), h.max_length) << h.name;
    EXPECT_FALSE(h.source.empty()) << h.name;
  }
}

TEST(SequenceLengths, WikipediaIsHalfPaddingAtLength512) {
  // Krell et al. 2021: "at sequence length 512 padding tokens represent in excess of 50%".
  const LengthHistogram& wikipedia = find_length_histogram("wikipedia-bert-512");
  EXPECT_GT(wikipedia.padding(), 0.50);
  EXPECT_LT(wikipedia.padding(), 0.51);
}

TEST(SequenceLengths, UnknownNameListsTheKnownOnes) {
  try {
    find_length_histogram("c4");
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()),
              "unknown sequence-length histogram 'c4' (known: wikipedia-bert-512, squad-1.1-384)");
  }
}

}  // namespace
}  // namespace scalecast
