// --shard I/N and --part FILE for the commands that shard (predict --sweep, recommend, validate):
// which work items this process computes, progress per shard on stderr, and the part file.
#pragma once

#include <chrono>
#include <cstddef>
#include <string>
#include <vector>

#include "cli/common.h"
#include "sim/io/shard_part.h"
#include "sim/io/work_share.h"

namespace scalecast::cli {

struct ShardOptions {
  std::string shard, part;
};
void add_shard_options(po::options_description& options, ShardOptions& shard);

// The work share of a run: `merged` when `scalecast merge` runs the command, else --shard I/N
// (which needs --part), else the whole run.
WorkShare work_share(const ShardOptions& options, const WorkShare* merged);

// The hash of this scalecast program, which parts record: a merge joins only one build's parts.
std::string build_hash();

// What a shard records of its command line: the tokens without --shard, --part and --output,
// the output, and the inputs (every option value naming an existing file or folder, but the
// outputs, and `more` files the command read), each with its content hash.
Part part_of(const std::string& command, const po::parsed_options& parsed, const po::variables_map& vm,
             const std::vector<std::string>& outputs, const std::vector<std::string>& more);

// Progress of a shard on stderr: what it computes, each item as it finishes, and its part.
class ShardProgress {
 public:
  // `start`: when the shard's work began (validate counts its items only once it has run).
  ShardProgress(std::string command, const WorkShare& share, std::size_t total, const std::string& unit,
                std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now());
  // Runs `work` for one item; a failure is reported (the shard, the item) and passed on.
  template <class Work>
  void attempt(std::size_t item, const std::string& what, Work&& work) {
    try {
      work();
    } catch (...) {
      failed(item, what);
      throw;
    }
    done(item, what);
  }
  void done(std::size_t item, const std::string& what);
  void failed(std::size_t item, const std::string& what) const;
  void wrote(const std::string& part) const;

 private:
  std::string prefix_;
  std::size_t mine_ = 0, done_ = 0, total_ = 0;
  std::string unit_;
  bool sharded_ = false;
  std::chrono::steady_clock::time_point start_, last_;
};

}  // namespace scalecast::cli
