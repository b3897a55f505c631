// Seeded generation of scenarios across the space a buyer could ask about (every zoo model,
// GPU, fabric, 1-400 Gbps, TCP or RDMA, every method and all-reduce algorithm, PS placement and
// server counts, partition and credit sizes), as scenario YAML so a failure reproduces as a file.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "sim/prediction/prediction.h"

namespace scalecast::invariants {

struct Bounds {
  int max_gpus = 1024;
  std::vector<std::string> models;  // empty: the whole zoo
  int iterations = 3;
};

struct GeneratedCase {
  std::string yaml;    // a complete scenario
  std::string method;
  int gpus = 1;
  std::string command() const;  // how to reproduce: scalecast predict case.yaml -m M -g G
};

GeneratedCase generate_case(std::mt19937_64& rng, int index, const Bounds& bounds);

// The draws generators make: one of `from` uniformly; true with probability p.
template <typename T>
const T& pick(std::mt19937_64& rng, const std::vector<T>& from) {
  return from[std::uniform_int_distribution<size_t>(0, from.size() - 1)(rng)];
}
inline bool chance(std::mt19937_64& rng, double p) { return std::bernoulli_distribution(p)(rng); }

// Everything a prediction must satisfy whatever its input; one line per violation.
std::vector<std::string> violations(const PredictionRun& run, const Workload& workload);

// Writes the case as a scenario file under the test's temporary folder; returns its path.
std::string save_case(const GeneratedCase& c, const std::string& name);

// Cases to run: SCALECAST_INVARIANT_CASES, or that share (0-1) of the default count from
// SCALECAST_INVARIANT_SHARE (the sanitizer build runs fewer); the seed: SCALECAST_INVARIANT_SEED.
int case_count(int default_count);
std::uint64_t seed();

}  // namespace scalecast::invariants
