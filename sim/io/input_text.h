// Text taken from an input file, checked and shown safely: names must be UTF-8 (JSON outputs
// carry them), and an error quotes a value on one line however many line breaks it holds.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace scalecast {

bool is_utf8(std::string_view text);

// 'text' in quotes for a one-line error message: line breaks and other control bytes, and bytes
// that are not UTF-8, written as \n or \xNN; at most 60 characters, then "...".
std::string quote_input(std::string_view text);

// The values an input may take, as an error lists them: "a, b, c".
std::string join_choices(const std::vector<std::string>& items);

}  // namespace scalecast
