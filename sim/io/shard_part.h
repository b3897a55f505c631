// The part file a shard writes (--shard I/N --part FILE) and the checks `scalecast merge` makes
// before joining parts: one run (command line, inputs, build), every shard once, each complete.
#pragma once

#include <cstddef>
#include <functional>
#include <map>
#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace scalecast {

// A file or folder the run read, with the hash of its content (a folder: of every file in it).
struct PartInput {
  std::string path;
  std::string hash;
  bool operator==(const PartInput&) const = default;
};

struct Part {
  std::string file;                    // where it was read from ("" when written)
  std::string command;                 // predict, recommend, validate
  std::vector<std::string> arguments;  // the command line without --shard, --part and --output
  std::string output;                  // --output ("" for stdout)
  std::string build;                   // hash of the scalecast program that ran it
  std::vector<PartInput> inputs;
  std::size_t items = 0;               // work items of the whole run
  int shard = 0, shards = 1;
  std::map<std::size_t, nlohmann::json> results;  // by item: the items of shard I/N (j mod N == I)
};

// 64-bit FNV-1a of a file's bytes, or of every file under a folder (relative path and bytes, in
// path order), as 16 hex digits; throws InputError where it cannot be read.
std::string content_hash(const std::string& path);

void write_part(std::ostream& out, const Part& part);
// Throws InputError "FILE: ..." for a file that is not a part or not a complete one.
Part read_part(const std::string& path);

// Refuses (InputError naming the file) parts of different runs, a shard twice, a missing shard,
// an input that changed since the shards read it (`current_hash` of its path now) and parts made
// by another build than `build`. The parts may come in any order.
void check_parts(const std::vector<Part>& parts, const std::string& build,
                 const std::function<std::string(const std::string&)>& current_hash);

}  // namespace scalecast
