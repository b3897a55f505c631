// UTF-8 validation (RFC 3629: no overlong forms, no surrogates, nothing above U+10FFFF) and the
// quoting of input values and lists of the values allowed in one-line error messages.
#include "sim/io/input_text.h"

#include <fmt/format.h>

namespace scalecast {
namespace {

// Length of the well-formed UTF-8 sequence at text[i], or 0 where there is none.
std::size_t sequence_length(std::string_view text, std::size_t i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char lead = byte(i);
  if (lead < 0x80) return 1;
  std::size_t length = 0;
  unsigned char low = 0x80, high = 0xBF;  // range of the first continuation byte
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    if (lead == 0xE0) low = 0xA0;   // no overlong forms
    if (lead == 0xED) high = 0x9F;  // no surrogates
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    if (lead == 0xF0) low = 0x90;   // no overlong forms
    if (lead == 0xF4) high = 0x8F;  // nothing above U+10FFFF
  } else {
    return 0;
  }
  if (i + length > text.size()) return 0;
  if (byte(i + 1) < low || byte(i + 1) > high) return 0;
  for (std::size_t k = 2; k < length; ++k)
    if (byte(i + k) < 0x80 || byte(i + k) > 0xBF) return 0;
  return length;
}

}  // namespace

bool is_utf8(std::string_view text) {
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t length = sequence_length(text, i);
    if (length == 0) return false;
    i += length;
  }
  return true;
}

std::string quote_input(std::string_view text) {
  constexpr int kShown = 60;
  std::string out = "'";
  int shown = 0;
  std::size_t i = 0;
  for (; i < text.size() && shown < kShown; ++shown) {
    const auto c = static_cast<unsigned char>(text[i]);
    const std::size_t length = sequence_length(text, i);
    if (length > 1 || (length == 1 && c >= 0x20 && c != 0x7F)) {
      out.append(text.substr(i, length));
      i += length;
      continue;
    }
    if (c == '\n') {
      out += "\\n";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c == '\r') {
      out += "\\r";
    } else {
      out += fmt::format("\\x{:02X}", static_cast<unsigned char>(c));
    }
    ++i;
  }
  if (i < text.size()) out += "...";
  return out + "'";
}

std::string join_choices(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& item : items) out += (out.empty() ? "" : ", ") + item;
  return out;
}

}  // namespace scalecast
