// CSV quoting (RFC 4180): a field with a comma, a quote or a line break goes in double quotes, and
// so does one starting with '#', which scalecast's readers would take for a comment line.
#include "sim/report/csv_field.h"

namespace scalecast {

std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\r\n") == std::string::npos && (text.empty() || text.front() != '#'))
    return text;
  std::string out = "\"";
  for (char c : text) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

}  // namespace scalecast
