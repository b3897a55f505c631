// A checked walk over a JSON input (schedule and timeline files): typed getters that throw
// one-line errors "FILE: /tasks/3/server: expected WHAT, got VALUE", naming the value's JSON pointer.
#pragma once

#include <cstddef>
#include <initializer_list>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/io/ranges.h"

namespace scalecast {

// The parsed text; a syntax error, a number no double holds (1e999) or text that is not UTF-8
// names `source` and where the parser stopped.
nlohmann::json parse_json(const std::string& text, const std::string& source);
// The file's text, unparsed (for readers with a parser of their own); `what` names it in errors:
// a folder, a missing or an unreadable file.
std::string read_json_text(const std::string& path, const std::string& what);
// The parsed file; `what` names it in errors ("a schedule file").
nlohmann::json read_json_file(const std::string& path, const std::string& what);

class JsonReader {
 public:
  // `value` must outlive the reader and every reader taken from it.
  JsonReader(const nlohmann::json& value, std::string source);

  const nlohmann::json& value() const { return *value_; }
  const std::string& pointer() const { return pointer_; }  // "" at the top level

  // Throws unless this is an object whose keys are all in `allowed` (listed in the error).
  void check_keys(const std::vector<std::string>& allowed) const;
  // The value under a key that must be present.
  JsonReader require(const std::string& key) const;
  bool has(const std::string& key) const;
  // An array's length (throws unless this is an array) and its entries.
  std::size_t size() const;
  JsonReader item(std::size_t index) const;

  // This value read as one type; anything else, or a value out of range, throws.
  std::string string() const;
  std::string choice(const std::string& what, const std::vector<std::string>& known) const;
  int integer(int min, int max) const;  // a JSON integer: 0.5 and 1.0 are refused
  double number(const Bound& bound) const;
  bool boolean() const;
  std::vector<int> int_list(int min, int max) const;
  std::vector<std::string> string_list() const;
  // One of `values`, spelled as to_string() writes it.
  template <class Enum>
  Enum enumeration(const std::string& what, std::initializer_list<Enum> values) const {
    std::vector<std::string> names;
    for (Enum v : values) names.push_back(to_string(v));
    const std::string text = choice(what, names);
    for (Enum v : values)
      if (to_string(v) == text) return v;
    fail(what);
  }

  // Throws "SOURCE: POINTER: expected EXPECTED, got VALUE" for this value.
  [[noreturn]] void fail(const std::string& expected) const;

 private:
  JsonReader(const nlohmann::json& value, std::shared_ptr<const std::string> source,
             std::string pointer);
  std::string describe_value() const;  // "99", "'text'", "an object", "an array", "null"

  const nlohmann::json* value_;
  std::shared_ptr<const std::string> source_;
  std::string pointer_;
};

}  // namespace scalecast
