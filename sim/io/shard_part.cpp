// Part files of sharded runs: written as JSON (numbers read back to the same double), read back
// checked, and joined only when they are every shard of one run over the inputs as they are now.
#include "sim/io/shard_part.h"

#include <algorithm>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <iterator>

#include "sim/io/input_error.h"
#include "sim/io/json_reader.h"

namespace scalecast {

namespace {

constexpr int kFormat = 1;

struct Fnv {
  std::uint64_t h = 14695981039346656037ull;
  void add(const char* data, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) h = (h ^ static_cast<unsigned char>(data[i])) * 1099511628211ull;
  }
  void add_file(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw InputError(path.string() + ": expected a file that can be read, got none");
    char buffer[65536];
    while (in.read(buffer, sizeof buffer) || in.gcount() > 0) add(buffer, static_cast<std::size_t>(in.gcount()));
  }
};

std::string shard_name(int shard, int shards) { return std::to_string(shard) + "/" + std::to_string(shards); }

std::string quoted(const std::vector<std::string>& words) {
  std::string out;
  for (const auto& w : words) out += (out.empty() ? "" : " ") + w;
  return "'" + out + "'";
}

// "" when the two describe one run; else what differs.
std::string difference(const Part& a, const Part& b) {
  if (a.command != b.command) return "a part of `" + a.command + "`, not `" + b.command + "`";
  if (a.arguments != b.arguments) return "its command line " + quoted(a.arguments) + " differs (" + quoted(b.arguments) + ")";
  if (a.output != b.output) return "its --output '" + a.output + "' differs ('" + b.output + "')";
  if (a.shards != b.shards) return "one of " + std::to_string(a.shards) + " shards, not " + std::to_string(b.shards);
  if (a.items != b.items) return std::to_string(a.items) + " work items, not " + std::to_string(b.items);
  if (a.build != b.build) return "made by another scalecast build";
  for (const PartInput& in : a.inputs) {
    const auto same = std::find_if(b.inputs.begin(), b.inputs.end(), [&](const PartInput& o) { return o.path == in.path; });
    if (same == b.inputs.end() || same->hash != in.hash) return "its input " + in.path + " was another file's content";
  }
  if (a.inputs.size() != b.inputs.size()) return "it read other inputs";
  return "";
}

}  // namespace

std::string content_hash(const std::string& path) {
  namespace fs = std::filesystem;
  Fnv fnv;
  std::error_code ec;
  if (fs::is_directory(path, ec)) {
    std::vector<fs::path> files;
    for (fs::recursive_directory_iterator it(path, ec), end; !ec && it != end; it.increment(ec))
      if (it->is_regular_file(ec)) files.push_back(it->path());
    if (ec) throw InputError(path + ": expected a folder that can be read, got " + ec.message());
    std::sort(files.begin(), files.end());
    for (const fs::path& f : files) {
      const std::string relative = fs::relative(f, path, ec).generic_string();
      fnv.add(relative.c_str(), relative.size() + 1);
      fnv.add_file(f);
    }
  } else {
    fnv.add_file(path);
  }
  return fmt::format("{:016x}", fnv.h);
}

void write_part(std::ostream& out, const Part& p) {
  nlohmann::ordered_json j;
  j["scalecast_part"] = kFormat;
  j["command"] = p.command;
  j["arguments"] = p.arguments;
  j["output"] = p.output;
  j["build"] = p.build;
  j["inputs"] = nlohmann::ordered_json::array();
  for (const PartInput& in : p.inputs) j["inputs"].push_back({{"path", in.path}, {"hash", in.hash}});
  j["items"] = p.items;
  j["shard"] = p.shard;
  j["shards"] = p.shards;
  j["results"] = nlohmann::ordered_json::array();
  for (const auto& [item, result] : p.results)
    j["results"].push_back({{"item", item}, {"result", nlohmann::ordered_json::parse(result.dump())}});
  out << j.dump(1) << '\n';
}

Part read_part(const std::string& path) {
  const nlohmann::json doc = read_json_file(path, "a part file");
  const JsonReader j(doc, path);
  if (!doc.is_object() || !doc.contains("scalecast_part"))
    throw InputError(InputKind::file, path + ": expected a part file (written by --shard I/N --part FILE), got other JSON");
  j.check_keys({"scalecast_part", "command", "arguments", "output", "build", "inputs", "items", "shard", "shards", "results"});
  if (j.require("scalecast_part").integer(0, 1000000) != kFormat)
    throw InputError(InputKind::file, path + ": expected a part file of format " + std::to_string(kFormat) + " (this scalecast's), got another");
  Part p;
  p.file = path;
  p.command = j.require("command").choice("a sharded command", {"predict", "recommend", "validate"});
  p.arguments = j.require("arguments").string_list();
  p.output = j.require("output").string();
  p.build = j.require("build").string();
  const JsonReader inputs = j.require("inputs");
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const JsonReader in = inputs.item(i);
    in.check_keys({"path", "hash"});
    p.inputs.push_back({in.require("path").string(), in.require("hash").string()});
  }
  p.items = static_cast<std::size_t>(j.require("items").integer(0, 100000000));
  p.shards = j.require("shards").integer(1, 100000);
  p.shard = j.require("shard").integer(0, p.shards - 1);
  const JsonReader results = j.require("results");
  for (std::size_t i = 0; i < results.size(); ++i) {
    const JsonReader r = results.item(i);
    r.check_keys({"item", "result"});
    const auto item = static_cast<std::size_t>(r.require("item").integer(0, 100000000));
    if (!p.results.emplace(item, r.require("result").value()).second) r.require("item").fail("each item once");
  }
  // Shard I of N holds the results of the items j < items with j mod N == I, and no others.
  std::size_t expected = 0;
  for (std::size_t item = static_cast<std::size_t>(p.shard); item < p.items; item += static_cast<std::size_t>(p.shards)) {
    if (!p.results.count(item))
      throw InputError(InputKind::file, path + ": shard " + shard_name(p.shard, p.shards) + " is incomplete: no result for work item " +
                           std::to_string(item) + " of " + std::to_string(p.items));
    ++expected;
  }
  if (p.results.size() != expected)
    throw InputError(InputKind::file, path + ": shard " + shard_name(p.shard, p.shards) + " holds results of items that are not its own");
  return p;
}

void check_parts(const std::vector<Part>& parts, const std::string& build,
                 const std::function<std::string(const std::string&)>& current_hash) {
  if (parts.empty()) throw InputError("expected the part files of a sharded run, got none");
  const Part& first = parts.front();
  std::map<int, const Part*> seen;
  for (const Part& p : parts) {
    if (const std::string d = difference(p, first); !d.empty())
      throw InputError(InputKind::file, p.file + ": from another run than " + first.file + ": " + d);
    if (const auto [it, added] = seen.emplace(p.shard, &p); !added)
      throw InputError(InputKind::file, p.file + ": shard " + shard_name(p.shard, p.shards) + " again (" + it->second->file +
                           " is that shard): each shard once");
  }
  std::string missing;
  for (int s = 0; s < first.shards; ++s)
    if (!seen.count(s)) missing += (missing.empty() ? "" : ", ") + shard_name(s, first.shards);
  if (!missing.empty())
    throw InputError("expected every shard of " + first.file + "'s run, got none of " + missing +
                     ": run each (--shard I/N) and merge again");
  if (first.build != build)
    throw InputError(InputKind::file, first.file + ": made by another scalecast build than this merge: merge with the program that ran the shards");
  for (const PartInput& in : first.inputs)
    if (current_hash(in.path) != in.hash)
      throw InputError(InputKind::file, in.path + ": changed since the shards read it (" + first.file + "): run them again");
}

}  // namespace scalecast
