// Datasets' sequence-length histograms, as measured and published: how many samples of a training
// set have each length in tokens. model.sequence_lengths names one (sim/compute/padded_lengths.h).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace scalecast {

struct LengthHistogram {
  std::string name;              // catalog key, e.g. "wikipedia-bert-512"
  std::string description;
  int max_length = 0;            // the longest sample: the sequence length the set was cut to
  std::vector<int64_t> samples;  // samples[i]: samples of i + 1 tokens (max_length entries)
  std::string source;

  int64_t total() const;
  double mean_length() const;    // tokens per sample
  double padding() const;        // the share of max_length x samples that is padding
};

const std::vector<LengthHistogram>& length_histograms();
// Throws an InputError naming the known histograms.
const LengthHistogram& find_length_histogram(const std::string& name);
std::vector<std::string> length_histogram_names();

}  // namespace scalecast
