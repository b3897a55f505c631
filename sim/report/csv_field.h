// One field of a CSV output: names from inputs (a scenario, a model, a layer) may hold commas,
// quotes or line breaks, and must not split a row.
#pragma once

#include <string>

namespace scalecast {

// Quotes a field when it holds a comma, a quote or a line break, or starts with '#' ("" inside
// quotes is one quote).
std::string csv_field(const std::string& text);

}  // namespace scalecast
