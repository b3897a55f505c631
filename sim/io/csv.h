// The one CSV module: reads files with a header row (quoted fields, RFC 4180) into records whose
// fields are looked up by column name with typed, checked getters, and quotes fields on write.
#pragma once

#include <cstddef>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "sim/io/input_error.h"
#include "sim/io/ranges.h"

namespace scalecast {

// The file name and column positions that every record of one file shares.
struct CsvLayout {
  std::string file;
  std::map<std::string, std::size_t> columns;
};

class CsvRecord {
 public:
  CsvRecord(std::shared_ptr<const CsvLayout> layout, int line, std::vector<std::string> fields);

  int line() const { return line_; }
  const std::string& file() const { return layout_->file; }
  // The field as text; throws if the column is missing from the header.
  const std::string& text(const std::string& column) const;
  // Whether the header has the column and this record a value in it (for columns a table may
  // leave out).
  bool has_value(const std::string& column) const;
  const std::string& non_empty(const std::string& column) const;
  int integer(const std::string& column, int min, int max) const;
  double number(const std::string& column, const Bound& bound) const;
  // The field, which must be one of `allowed`.
  const std::string& choice(const std::string& column, const std::vector<std::string>& allowed) const;
  // Throws an InputError "FILE:LINE: COLUMN: expected WHAT, got 'VALUE'".
  [[noreturn]] void fail(const std::string& column, const std::string& expected) const;

 private:
  std::shared_ptr<const CsvLayout> layout_;
  int line_;
  std::vector<std::string> fields_;
};

class CsvFile {
 public:
  // Reads the file; every record must have as many fields as the header. Blank lines are skipped.
  explicit CsvFile(const std::string& path);

  const std::vector<CsvRecord>& records() const { return records_; }
  bool has_columns(const std::vector<std::string>& columns) const;

 private:
  std::vector<std::string> header_;
  std::vector<CsvRecord> records_;
};

// Splits one CSV line; fields may be double-quoted ("" inside quotes is one quote).
std::vector<std::string> split_csv_line(const std::string& line);

}  // namespace scalecast
