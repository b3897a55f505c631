// CSV reading for every table scalecast reads: quoted fields (RFC 4180), a header row, records
// checked against it, and typed getters whose errors name the file, line and column.
#include "sim/io/csv.h"

#include <algorithm>
#include <charconv>
#include <fstream>

#include "sim/io/input_error.h"
#include "sim/io/input_text.h"

namespace scalecast {

std::vector<std::string> split_csv_line(const std::string& line) {
  std::vector<std::string> fields(1);
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        fields.back() += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        fields.back() += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      fields.emplace_back();
    } else {
      fields.back() += c;
    }
  }
  return fields;
}

CsvRecord::CsvRecord(std::shared_ptr<const CsvLayout> layout, int line,
                     std::vector<std::string> fields)
    : layout_(std::move(layout)), line_(line), fields_(std::move(fields)) {}

void CsvRecord::fail(const std::string& column, const std::string& expected) const {
  const auto it = layout_->columns.find(column);
  const std::string got = it == layout_->columns.end() ? "no such column" : quote_input(fields_[it->second]);
  throw InputError(InputKind::file, layout_->file + ":" + std::to_string(line_) + ": " + column + ": expected " +
                  expected + ", got " + got);
}

const std::string& CsvRecord::text(const std::string& column) const {
  const auto it = layout_->columns.find(column);
  if (it == layout_->columns.end()) fail(column, "a column of that name");
  return fields_[it->second];
}

bool CsvRecord::has_value(const std::string& column) const {
  const auto it = layout_->columns.find(column);
  return it != layout_->columns.end() && !fields_[it->second].empty();
}

const std::string& CsvRecord::non_empty(const std::string& column) const {
  const std::string& value = text(column);
  if (value.empty()) fail(column, "a value");
  return value;
}

const std::string& CsvRecord::choice(const std::string& column, const std::vector<std::string>& allowed) const {
  const std::string& value = text(column);
  if (std::find(allowed.begin(), allowed.end(), value) == allowed.end())
    fail(column, "one of " + join_choices(allowed));
  return value;
}

int CsvRecord::integer(const std::string& column, int min, int max) const {
  const std::string& value = text(column);
  int out = 0;
  const auto [ptr, ec] = std::from_chars(value.data(), value.data() + value.size(), out);
  if (ec != std::errc() || ptr != value.data() + value.size() || out < min || out > max)
    fail(column, "a whole number in [" + std::to_string(min) + ", " + std::to_string(max) + "]");
  return out;
}

double CsvRecord::number(const std::string& column, const Bound& bound) const {
  const std::string& value = text(column);
  double out = 0;
  const auto [ptr, ec] = std::from_chars(value.data(), value.data() + value.size(), out);
  if (ec != std::errc() || ptr != value.data() + value.size() || !bound.contains(out))
    fail(column, "a number " + bound.describe());
  return out;
}

CsvFile::CsvFile(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw InputError(InputKind::file, path + ": expected a readable CSV file, got one that cannot be opened");
  auto layout = std::make_shared<CsvLayout>();
  layout->file = path;
  std::string line;
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) continue;
    // Quotes come in pairs ("" inside a quoted field is one quote): an odd count leaves a field open.
    if (std::count(line.begin(), line.end(), '"') % 2 != 0)
      throw InputError(InputKind::file, path + ":" + std::to_string(number) + ": expected a closing quote, got a field left open: " +
                      quote_input(line));
    std::vector<std::string> fields = split_csv_line(line);
    if (header_.empty()) {
      header_ = fields;
      for (std::size_t i = 0; i < fields.size(); ++i) {
        if (!layout->columns.emplace(fields[i], i).second)
          throw InputError(InputKind::file, path + ":" + std::to_string(number) +
                          ": expected unique column names, got " + quote_input(fields[i]) + " twice");
      }
      continue;
    }
    if (fields.size() != header_.size())
      throw InputError(InputKind::file, path + ":" + std::to_string(number) + ": expected " +
                      std::to_string(header_.size()) + " fields as in the header, got " +
                      std::to_string(fields.size()));
    records_.emplace_back(layout, number, std::move(fields));
  }
  if (header_.empty()) throw InputError(InputKind::file, path + ":1: expected a header row, got an empty file");
}

bool CsvFile::has_columns(const std::vector<std::string>& columns) const {
  for (const auto& c : columns) {
    bool found = false;
    for (const auto& h : header_) found = found || h == c;
    if (!found) return false;
  }
  return true;
}

}  // namespace scalecast
