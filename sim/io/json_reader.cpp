// Strict reading of JSON inputs: parse errors with the file and position, and typed getters
// whose errors name the file, the JSON pointer (RFC 6901), what was expected and what was found.
#include "sim/io/json_reader.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "sim/io/input_error.h"
#include "sim/io/input_text.h"
#include "sim/io/json_text.h"

namespace scalecast {
namespace {

using nlohmann::json;

// A key as a JSON pointer writes it ('~' as ~0, '/' as ~1), kept on one line.
std::string pointer_token(const std::string& key) {
  std::string out;
  for (char c : key) {
    if (c == '~') out += "~0";
    else if (c == '/') out += "~1";
    else out += c;
  }
  const std::string shown = quote_input(out);
  return shown.substr(1, shown.size() - 2);
}

// nlohmann's message without its "[json.exception.parse_error.101] " prefix.
std::string parser_message(const json::exception& e) {
  const std::string what = e.what();
  const auto end = what.find("] ");
  return what.rfind("[json.exception.", 0) == 0 && end != std::string::npos ? what.substr(end + 2) : what;
}

}  // namespace

json parse_json(const std::string& text, const std::string& source) {
  try {
    return json::parse(text);
  } catch (const json::exception& e) {
    throw InputError(InputKind::file, source + ": expected valid JSON, got " + parser_message(e));
  }
}

std::string read_json_text(const std::string& path, const std::string& what) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec))
    throw InputError(InputKind::file, path + ": expected " + what + ", got " +
                    (std::filesystem::exists(path, ec) ? "something that is not a file" : "no such file"));
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  if (!in) throw InputError(InputKind::file, path + ": expected " + what + ", got one that cannot be read");
  return text.str();
}

json read_json_file(const std::string& path, const std::string& what) {
  return parse_json(read_json_text(path, what), path);
}

JsonReader::JsonReader(const json& value, std::string source)
    : JsonReader(value, std::make_shared<const std::string>(std::move(source)), "") {}

JsonReader::JsonReader(const json& value, std::shared_ptr<const std::string> source, std::string pointer)
    : value_(&value), source_(std::move(source)), pointer_(std::move(pointer)) {}

std::string JsonReader::describe_value() const {
  switch (value_->type()) {
    case json::value_t::object: return "an object";
    case json::value_t::array: return "an array";
    case json::value_t::null: return "null";
    case json::value_t::string: return quote_input(value_->get_ref<const std::string&>());
    default: return quote_input(json_text(*value_));
  }
}

void JsonReader::fail(const std::string& expected) const {
  throw InputError(InputKind::file, *source_ + ": " + (pointer_.empty() ? "top level" : pointer_) + ": expected " + expected +
                  ", got " + describe_value());
}

void JsonReader::check_keys(const std::vector<std::string>& allowed) const {
  if (!value_->is_object()) fail("an object with the keys " + join_choices(allowed));
  for (const auto& [key, value] : value_->items())
    if (std::find(allowed.begin(), allowed.end(), key) == allowed.end())
      JsonReader(value, source_, pointer_ + "/" + pointer_token(key)).fail("one of the keys " + join_choices(allowed));
}

JsonReader JsonReader::require(const std::string& key) const {
  if (!value_->is_object()) fail("an object with the key " + key);
  const auto it = value_->find(key);
  const std::string pointer = pointer_ + "/" + pointer_token(key);
  if (it == value_->end())
    throw InputError(InputKind::file, *source_ + ": " + pointer + ": expected a value for this required key, got nothing");
  return JsonReader(*it, source_, pointer);
}

bool JsonReader::has(const std::string& key) const { return value_->is_object() && value_->contains(key); }

std::size_t JsonReader::size() const {
  if (!value_->is_array()) fail("an array");
  return value_->size();
}

JsonReader JsonReader::item(std::size_t index) const {
  return JsonReader((*value_)[index], source_, pointer_ + "/" + std::to_string(index));
}

std::string JsonReader::string() const {
  if (!value_->is_string()) fail("a string");
  return value_->get<std::string>();
}

std::string JsonReader::choice(const std::string& what, const std::vector<std::string>& known) const {
  const std::string expected = what + " (one of " + join_choices(known) + ")";
  if (!value_->is_string()) fail(expected);
  const auto& text = value_->get_ref<const std::string&>();
  if (std::find(known.begin(), known.end(), text) == known.end()) fail(expected);
  return text;
}

int JsonReader::integer(int min, int max) const {
  const std::string expected = "an integer in [" + std::to_string(min) + ", " + std::to_string(max) + "]";
  if (value_->is_number_unsigned()) {
    if (value_->get<std::uint64_t>() > static_cast<std::uint64_t>(max)) fail(expected);
  } else if (!value_->is_number_integer()) {
    fail(expected);
  }
  const auto value = value_->get<std::int64_t>();
  if (value < min || value > max) fail(expected);
  return static_cast<int>(value);
}

double JsonReader::number(const Bound& bound) const {
  if (!value_->is_number() || !bound.contains(value_->get<double>())) fail("a number " + bound.describe());
  return value_->get<double>();
}

bool JsonReader::boolean() const {
  if (!value_->is_boolean()) fail("true or false");
  return value_->get<bool>();
}

std::vector<int> JsonReader::int_list(int min, int max) const {
  std::vector<int> out;
  for (std::size_t i = 0; i < size(); ++i) out.push_back(item(i).integer(min, max));
  return out;
}

std::vector<std::string> JsonReader::string_list() const {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < size(); ++i) out.push_back(item(i).string());
  return out;
}

}  // namespace scalecast
