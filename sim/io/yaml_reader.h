// A checked walk over a YAML input: typed getters that throw one-line errors of the form
// "FILE:LINE: KEY.PATH: expected WHAT, got 'VALUE'" (or "--set KEY.PATH: ..." for overrides).
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "sim/io/ranges.h"

namespace scalecast {

// Reads one node of a YAML document, knowing its file, key path and line for errors.
// Values that came from a command-line override are reported as "--set KEY.PATH".
class YamlReader {
 public:
  // A key path set from outside the file, and where it was set ("--set", a cluster file).
  struct Overridden {
    std::string key_path;
    std::string origin;
  };
  // Errors at or below an overridden key path name its origin instead of the file's line.
  YamlReader(YAML::Node root, std::string file, std::vector<Overridden> overridden = {});

  const std::string& key_path() const { return path_; }
  bool is_map() const { return node_.IsMap(); }
  bool is_scalar() const { return node_.IsScalar(); }

  // Throws unless this is a map whose keys are all in `allowed` (listed in the error), each once.
  void check_keys(const std::vector<std::string>& allowed) const;
  // The value under a key that must be present; a missing key is reported at this map's line.
  YamlReader require(const std::string& key) const;
  std::optional<YamlReader> optional(const std::string& key) const;
  // A map's entries in file order: each key read as a value of its own (for maps keyed by a
  // quantity, such as sizes), and its value; keys must be scalars and appear once.
  std::vector<std::pair<YamlReader, YamlReader>> entries(const std::string& expected) const;

  // This value read as one type; anything else throws.
  std::string string() const;  // a non-empty scalar of UTF-8 text
  std::string choice(const std::string& what, const std::vector<std::string>& known) const;
  int integer(int min, int max) const;
  double number(Bound bound) const;
  bool boolean() const;
  double duration(Bound bound) const;  // sim/io/units.h, strict
  double rate(Bound bound) const;
  double bytes(Bound bound) const;
  // Lists are non-empty and hold no entry twice.
  std::vector<std::string> string_list() const;
  std::vector<std::string> choice_list(const std::string& what,
                                       const std::vector<std::string>& known) const;
  std::vector<int> int_list(int min, int max) const;
  YamlReader item(std::size_t index) const;  // list entry, key path "KEY[index]"
  // The entries of a non-empty list; anything else fails with `expected`.
  std::vector<YamlReader> items(const std::string& expected) const;

  // "FILE:LINE:" (or "--set KEY.PATH"): where this value is, to name as the origin of overrides
  // that come from it ("FILE:LINE: other.key: expected ...").
  std::string where() const;
  // Throws "LOCATION: KEY.PATH: expected EXPECTED, got 'VALUE'" for this node.
  [[noreturn]] void fail(const std::string& expected) const;

 private:
  struct Context {
    std::string file;
    std::vector<Overridden> overridden;
  };
  YamlReader(std::shared_ptr<const Context> context, YAML::Node node, std::string path, int line);

  YamlReader child(const std::string& key, const YAML::Node& node) const;
  std::string describe_value() const;  // "'text'", "a map", "a list", "nothing"
  std::string location(const std::string& path, int line) const;
  const YAML::Node& scalar_or_fail(const std::string& expected) const;
  void check_distinct(const std::vector<std::string>& entries) const;
  template <class Parse>
  double quantity(Parse parse, const std::string& what, Bound bound) const;

  std::shared_ptr<const Context> context_;
  YAML::Node node_;
  std::string path_;
  int line_;  // 1-based; inherited from the parent where the node has no mark (built by --set)
};

}  // namespace scalecast
