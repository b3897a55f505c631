// A plain-text table with a row of units under the row of names (nccl-tests style), columns
// right-aligned to their widest cell.
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace scalecast {

class TextTable {
 public:
  TextTable(std::vector<std::string> names, std::vector<std::string> units);
  void add_row(std::vector<std::string> cells);
  void write(std::ostream& out) const;

 private:
  std::vector<std::vector<std::string>> rows_;  // names, units, then data
};

}  // namespace scalecast
