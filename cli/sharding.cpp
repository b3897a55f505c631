// A command's share of its work (--shard I/N, or the merge's results), the part a shard writes
// (its command line, inputs and build, each hashed), and its progress lines on stderr.
#include "cli/sharding.h"

#include <algorithm>
#include <filesystem>
#include <fmt/format.h>
#include <iostream>

#include "sim/io/input_error.h"

namespace scalecast::cli {

void add_shard_options(po::options_description& options, ShardOptions& shard) {
  options.add_options()
      ("shard", po::value(&shard.shard),
       "I/N: compute only shard I (from 0) of N, the work items j with j mod N == I, into --part; "
       "scalecast merge joins the N parts into this command's output")
      ("part", po::value(&shard.part), "the part file a --shard run writes (JSON)");
}

WorkShare work_share(const ShardOptions& options, const WorkShare* merged) {
  if (merged) return *merged;
  if (options.shard.empty()) {
    if (!options.part.empty()) throw InputError("--part: expected with --shard I/N only, got it alone");
    return {};
  }
  WorkShare share = parse_shard(options.shard);
  if (options.part.empty()) throw InputError("--shard " + options.shard + ": expected --part FILE for the shard's results, got none");
  return share;
}

std::string build_hash() { return content_hash("/proc/self/exe"); }

Part part_of(const std::string& command, const po::parsed_options& parsed, const po::variables_map& vm,
             const std::vector<std::string>& outputs, const std::vector<std::string>& more) {
  namespace fs = std::filesystem;
  Part p;
  p.command = command;
  p.arguments = tokens_without(parsed, {"shard", "part", "output"});
  if (vm.count("output")) p.output = vm["output"].as<std::string>();
  p.build = build_hash();
  std::vector<std::string> paths;
  for (const auto& [key, value] : vm)
    if (key != "shard" && key != "part" && std::find(outputs.begin(), outputs.end(), key) == outputs.end())
      for (const auto& path : path_values(value)) paths.push_back(path);
  paths.insert(paths.end(), more.begin(), more.end());
  for (const auto& path : paths) {
    std::error_code ec;
    const bool seen = std::any_of(p.inputs.begin(), p.inputs.end(), [&](const PartInput& in) { return in.path == path; });
    if (!seen && !path.empty() && (fs::is_regular_file(path, ec) || fs::is_directory(path, ec)))
      p.inputs.push_back({path, content_hash(path)});
  }
  return p;
}

ShardProgress::ShardProgress(std::string command, const WorkShare& share, std::size_t total, const std::string& unit,
                             std::chrono::steady_clock::time_point start)
    : prefix_(std::move(command) + ": shard " + share.name() + ": "),
      mine_(share.items(total).size()),
      total_(total),
      unit_(unit),
      sharded_(share.sharded()),
      start_(start),
      last_(std::chrono::steady_clock::now()) {
  if (sharded_) std::cerr << prefix_ << mine_ << " of " << total_ << " " << unit_ << " (items j mod " << share.count()
                          << " == " << share.index() << ")\n";
}

void ShardProgress::done(std::size_t item, const std::string& what) {
  if (!sharded_) return;
  const auto now = std::chrono::steady_clock::now();
  std::cerr << prefix_ << fmt::format("{}/{} done: item {} ({}), {:.2f} s\n", ++done_, mine_, item, what,
                                      std::chrono::duration<double>(now - last_).count());
  last_ = now;
}

void ShardProgress::failed(std::size_t item, const std::string& what) const {
  if (sharded_) std::cerr << prefix_ << "item " << item << " (" << what << ") failed; no part written\n";
}

void ShardProgress::wrote(const std::string& part) const {
  std::cerr << prefix_
            << fmt::format("wrote {} ({} of {} {} in {:.1f} s)\n", part, mine_, total_, unit_,
                           std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count());
}

}  // namespace scalecast::cli
