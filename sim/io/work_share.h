// Which work items of a run this process computes: all of them, shard I of N (the items j with
// j mod N == I), or none when merging, where the results come from the shards' part files.
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/io/json_reader.h"

namespace scalecast {

class WorkShare {
 public:
  WorkShare() = default;  // the whole run, in this process
  WorkShare(int index, int count);  // shard `index` of `count` (0-based); throws InputError
  // Every result from the shards, by item, and the part file each came from: this process
  // computes none.
  static WorkShare merged(std::map<std::size_t, nlohmann::json> results, std::map<std::size_t, std::string> sources);

  bool sharded() const { return count_ > 0; }
  bool merging() const { return merging_; }
  int index() const { return index_; }
  int count() const { return count_; }
  // "2/4" for a shard, "" otherwise.
  std::string name() const;

  // Whether this process computes item `item`.
  bool computes(std::size_t item) const;
  // The items of 0..total-1 that this process computes, in order.
  std::vector<std::size_t> items(std::size_t total) const;

  // A shard records what it computed, for its part file.
  void record(std::size_t item, nlohmann::json result);
  const std::map<std::size_t, nlohmann::json>& results() const { return results_; }
  // When merging: the shards' result of `item`, read checked (errors name its part file and
  // item); throws InputError where no part has it.
  JsonReader result(std::size_t item) const;
  // When merging: throws InputError unless the parts held exactly `total` items' results.
  void check_total(std::size_t total) const;

 private:
  int index_ = 0, count_ = 0;
  bool merging_ = false;
  std::map<std::size_t, nlohmann::json> results_;
  std::map<std::size_t, std::string> sources_;
};

// "I/N" with 0 <= I < N <= 100000, as --shard takes it; throws InputError naming the option.
WorkShare parse_shard(const std::string& text);

}  // namespace scalecast
