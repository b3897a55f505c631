// JSON as scalecast writes it: every output file and message goes through here, so that a name
// from an input that is not UTF-8 is written with U+FFFD in its place instead of failing.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace scalecast {

// indent -1: one line; otherwise a line per value, indented by that many spaces per level.
template <class Json>
std::string json_text(const Json& json, int indent = -1) {
  return json.dump(indent, ' ', false, Json::error_handler_t::replace);
}

}  // namespace scalecast
