// Shards of a run's work items (round-robin: item j to shard j mod N), and the results a merge
// reads back from their part files.
#include "sim/io/work_share.h"

#include <charconv>

#include "sim/io/input_error.h"

namespace scalecast {

namespace {
constexpr int kMaxShards = 100000;
}

WorkShare::WorkShare(int index, int count) : index_(index), count_(count) {
  if (count < 1 || count > kMaxShards || index < 0 || index >= count)
    throw InputError("--shard: expected I/N with 0 <= I < N <= " + std::to_string(kMaxShards) + ", got " +
                     std::to_string(index) + "/" + std::to_string(count));
}

WorkShare WorkShare::merged(std::map<std::size_t, nlohmann::json> results,
                            std::map<std::size_t, std::string> sources) {
  WorkShare share;
  share.merging_ = true;
  share.results_ = std::move(results);
  share.sources_ = std::move(sources);
  return share;
}

std::string WorkShare::name() const {
  return sharded() ? std::to_string(index_) + "/" + std::to_string(count_) : "";
}

bool WorkShare::computes(std::size_t item) const {
  if (merging_) return false;
  return !sharded() || item % static_cast<std::size_t>(count_) == static_cast<std::size_t>(index_);
}

std::vector<std::size_t> WorkShare::items(std::size_t total) const {
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < total; ++i)
    if (computes(i)) out.push_back(i);
  return out;
}

void WorkShare::record(std::size_t item, nlohmann::json result) {
  if (sharded()) results_[item] = std::move(result);
}

JsonReader WorkShare::result(std::size_t item) const {
  const auto it = results_.find(item);
  if (it == results_.end())
    throw InputError("merge: expected a result for work item " + std::to_string(item) + " in the parts, got none");
  const auto source = sources_.find(item);
  return JsonReader(it->second, (source == sources_.end() ? std::string("merge") : source->second) + ": item " +
                                    std::to_string(item));
}

void WorkShare::check_total(std::size_t total) const {
  if (merging_ && results_.size() != total)
    throw InputError("merge: the parts hold " + std::to_string(results_.size()) + " work items, the run has " +
                     std::to_string(total) + " (were the inputs changed since the shards ran?)");
}

WorkShare parse_shard(const std::string& text) {
  const auto slash = text.find('/');
  int index = -1, count = 0;
  const auto number = [](const std::string& s, int& value) {
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
    return ec == std::errc{} && end == s.data() + s.size() && !s.empty();
  };
  if (slash == std::string::npos || !number(text.substr(0, slash), index) || !number(text.substr(slash + 1), count) ||
      count < 1 || count > kMaxShards || index < 0 || index >= count)
    throw InputError("--shard: expected I/N with 0 <= I < N <= " + std::to_string(kMaxShards) + " (shards counted from 0), got '" +
                     text + "'");
  return WorkShare(index, count);
}

}  // namespace scalecast
