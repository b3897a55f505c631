// Column-aligned text tables: names, units, then rows; every column sized to its widest cell.
// The first column is left-aligned (labels), the others right-aligned (numbers).
#include "sim/report/text_table.h"

#include <algorithm>
#include <stdexcept>

namespace scalecast {

TextTable::TextTable(std::vector<std::string> names, std::vector<std::string> units) {
  if (names.size() != units.size()) throw std::logic_error("table: names and units differ in size");
  rows_.push_back(std::move(names));
  rows_.push_back(std::move(units));
}

void TextTable::add_row(std::vector<std::string> cells) {
  if (cells.size() != rows_[0].size()) throw std::logic_error("table: row has the wrong size");
  rows_.push_back(std::move(cells));
}

void TextTable::write(std::ostream& out) const {
  std::vector<size_t> width(rows_[0].size(), 0);
  for (const auto& row : rows_)
    for (size_t i = 0; i < row.size(); ++i) width[i] = std::max(width[i], row[i].size());
  for (const auto& row : rows_) {
    std::string line;
    for (size_t i = 0; i < row.size(); ++i) {
      const std::string pad(width[i] - row[i].size(), ' ');
      if (i > 0) line += "  ";
      line += i == 0 ? row[i] + pad : pad + row[i];
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out << line << '\n';
  }
}

}  // namespace scalecast
