// Typed, strict reading of YAML nodes with errors that name file:line (or --set), key and value.
// Quantities go through sim/io/units.h; numbers through yaml-cpp conversions inside try/catch.
#include "sim/io/yaml_reader.h"

#include <algorithm>
#include <utility>

#include "sim/io/input_error.h"
#include "sim/io/input_text.h"
#include "sim/io/units.h"

namespace scalecast {
namespace {

// 1-based line of a node; `fallback` for nodes without a mark (built by --set).
int line_of(const YAML::Node& node, int fallback) {
  const YAML::Mark mark = node.Mark();
  return mark.line >= 0 ? mark.line + 1 : fallback;
}

std::string integer_text(int min, int max) {
  return "an integer in [" + std::to_string(min) + ", " + std::to_string(max) + "]";
}

}  // namespace

YamlReader::YamlReader(YAML::Node root, std::string file, std::vector<Overridden> overridden)
    : YamlReader(std::make_shared<const Context>(Context{std::move(file), std::move(overridden)}),
                 root, "", line_of(root, 1)) {}

YamlReader::YamlReader(std::shared_ptr<const Context> context, YAML::Node node, std::string path,
                       int line)
    : context_(std::move(context)), node_(std::move(node)), path_(std::move(path)), line_(line) {}

YamlReader YamlReader::child(const std::string& key, const YAML::Node& node) const {
  const std::string path = path_.empty() ? key : path_ + "." + key;
  if (node.IsNull() && node_.IsMap()) {
    // yaml-cpp marks an empty value at the next token; the key's own line is the one to show.
    for (const auto& entry : node_) {
      if (entry.first.IsScalar() && entry.first.Scalar() == key)
        return YamlReader(context_, node, path, line_of(entry.first, line_));
    }
  }
  return YamlReader(context_, node, path, line_of(node, line_));
}

std::string YamlReader::location(const std::string& path, int line) const {
  for (const auto& [set, origin] : context_->overridden) {
    if (path == set || path.starts_with(set + ".") || path.starts_with(set + "["))
      return origin + " " + path + ": ";
  }
  return context_->file + ":" + std::to_string(line) + ": " + (path.empty() ? "" : path + ": ");
}

std::string YamlReader::where() const {
  const std::string at = location(path_, line_);
  const std::string key = path_.empty() ? "" : path_ + ": ";
  if (!key.empty() && at.ends_with(key)) return at.substr(0, at.size() - key.size() - 1);  // "FILE:LINE:"
  return at.substr(0, at.size() - 2);
}

std::string YamlReader::describe_value() const {
  if (!node_.IsDefined() || node_.IsNull()) return "nothing";
  if (node_.IsMap()) return node_.size() == 0 ? "an empty map" : "a map";
  if (node_.IsSequence()) return node_.size() == 0 ? "an empty list" : "a list";
  return quote_input(node_.Scalar());
}

void YamlReader::fail(const std::string& expected) const {
  throw InputError(InputKind::file, location(path_, line_) + "expected " + expected + ", got " + describe_value());
}

const YAML::Node& YamlReader::scalar_or_fail(const std::string& expected) const {
  if (!node_.IsScalar()) fail(expected);
  return node_;
}

void YamlReader::check_keys(const std::vector<std::string>& allowed) const {
  if (!node_.IsMap()) fail("a map with the keys " + join_choices(allowed));
  std::vector<std::string> seen;
  for (const auto& entry : node_) {
    const YAML::Node& key = entry.first;
    YamlReader key_reader = child(key.IsScalar() ? key.Scalar() : "?", key);
    if (!key.IsScalar() || std::find(allowed.begin(), allowed.end(), key.Scalar()) == allowed.end())
      key_reader.fail("one of the keys " + join_choices(allowed));
    if (std::find(seen.begin(), seen.end(), key.Scalar()) != seen.end())
      key_reader.fail("each key once");
    seen.push_back(key.Scalar());
  }
}

std::vector<std::pair<YamlReader, YamlReader>> YamlReader::entries(const std::string& expected) const {
  if (!node_.IsMap() || node_.size() == 0) fail(expected);
  std::vector<std::pair<YamlReader, YamlReader>> out;
  std::vector<std::string> seen;
  for (const auto& entry : node_) {
    const YAML::Node& key = entry.first;
    YamlReader key_reader = child(key.IsScalar() ? key.Scalar() : "?", key);
    if (!key.IsScalar()) key_reader.fail(expected);
    if (std::find(seen.begin(), seen.end(), key.Scalar()) != seen.end()) key_reader.fail("each key once");
    seen.push_back(key.Scalar());
    out.emplace_back(key_reader, child(key.Scalar(), entry.second));
  }
  return out;
}

YamlReader YamlReader::require(const std::string& key) const {
  if (!node_.IsMap()) fail("a map with the key " + key);
  const YAML::Node value = node_[key];
  if (!value.IsDefined()) {
    const std::string path = path_.empty() ? key : path_ + "." + key;
    throw InputError(InputKind::file, location(path, line_) + "expected a value for this required key, got nothing");
  }
  return child(key, value);
}

std::optional<YamlReader> YamlReader::optional(const std::string& key) const {
  if (!node_.IsMap()) fail("a map");
  const YAML::Node value = node_[key];
  if (!value.IsDefined()) return std::nullopt;
  return child(key, value);
}

std::string YamlReader::string() const {
  const std::string& text = scalar_or_fail("a string").Scalar();
  if (text.empty()) fail("a non-empty string");
  if (!is_utf8(text)) fail("UTF-8 text");
  return text;
}

std::string YamlReader::choice(const std::string& what,
                               const std::vector<std::string>& known) const {
  const std::string expected = what + " (one of " + join_choices(known) + ")";
  const std::string& text = scalar_or_fail(expected).Scalar();
  if (std::find(known.begin(), known.end(), text) == known.end()) fail(expected);
  return text;
}

int YamlReader::integer(int min, int max) const {
  int value = 0;
  try {
    value = scalar_or_fail(integer_text(min, max)).as<int>();
  } catch (const YAML::Exception&) {
    fail(integer_text(min, max));
  }
  if (value < min || value > max) fail(integer_text(min, max));
  return value;
}

double YamlReader::number(Bound bound) const {
  const std::string expected = "a number " + bound.describe();
  double value = 0;
  try {
    value = scalar_or_fail(expected).as<double>();
  } catch (const YAML::Exception&) {
    fail(expected);
  }
  if (!bound.contains(value)) fail(expected);
  return value;
}

bool YamlReader::boolean() const {
  try {
    return scalar_or_fail("true or false").as<bool>();
  } catch (const YAML::Exception&) {
    fail("true or false");
  }
}

template <class Parse>
double YamlReader::quantity(Parse parse, const std::string& what, Bound bound) const {
  const std::string& text = scalar_or_fail(what).Scalar();
  double value = 0;
  try {
    value = parse(text);
  } catch (const InputError& e) {  // the unit's message, which does not know the file
    throw InputError(InputKind::file, location(path_, line_) + e.what());
  }
  if (!bound.contains(value)) fail(what + " " + bound.describe());
  return value;
}

double YamlReader::duration(Bound bound) const {
  return quantity(units::parse_duration, "a duration", bound);
}

double YamlReader::rate(Bound bound) const {
  return quantity(units::parse_rate, "a data rate", bound);
}

double YamlReader::bytes(Bound bound) const {
  return quantity(units::parse_bytes, "a size", bound);
}

YamlReader YamlReader::item(std::size_t index) const {
  const YAML::Node entry = node_[index];
  return YamlReader(context_, entry, path_ + "[" + std::to_string(index) + "]",
                    line_of(entry, line_));
}

std::vector<YamlReader> YamlReader::items(const std::string& expected) const {
  if (!node_.IsSequence() || node_.size() == 0) fail(expected);
  std::vector<YamlReader> out;
  for (std::size_t i = 0; i < node_.size(); ++i) out.push_back(item(i));
  return out;
}

void YamlReader::check_distinct(const std::vector<std::string>& entries) const {
  for (std::size_t i = 0; i < entries.size(); ++i) {
    if (std::find(entries.begin(), entries.begin() + static_cast<std::ptrdiff_t>(i),
                  entries[i]) != entries.begin() + static_cast<std::ptrdiff_t>(i))
      item(i).fail("each entry once");
  }
}

std::vector<std::string> YamlReader::string_list() const {
  if (!node_.IsSequence() || node_.size() == 0) fail("a non-empty list of strings");
  std::vector<std::string> out;
  for (std::size_t i = 0; i < node_.size(); ++i) out.push_back(item(i).string());
  check_distinct(out);
  return out;
}

std::vector<std::string> YamlReader::choice_list(const std::string& what,
                                                 const std::vector<std::string>& known) const {
  if (!node_.IsSequence() || node_.size() == 0) fail("a non-empty list");
  std::vector<std::string> out;
  for (std::size_t i = 0; i < node_.size(); ++i) out.push_back(item(i).choice(what, known));
  check_distinct(out);
  return out;
}

std::vector<int> YamlReader::int_list(int min, int max) const {
  if (!node_.IsSequence() || node_.size() == 0) fail("a non-empty list of integers");
  std::vector<int> out;
  std::vector<std::string> texts;
  for (std::size_t i = 0; i < node_.size(); ++i) {
    out.push_back(item(i).integer(min, max));
    texts.push_back(std::to_string(out.back()));
  }
  check_distinct(texts);
  return out;
}

}  // namespace scalecast
