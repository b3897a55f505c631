// Output files written all or none: each goes to FILE.tmp while it is written, and commit()
// renames every one into place once all are complete, so no failure leaves a partial or lone file.
#pragma once

#include <functional>
#include <ostream>
#include <string>
#include <vector>

#include "sim/io/input_error.h"

namespace scalecast {

class OutputFiles {
 public:
  OutputFiles() = default;
  OutputFiles(const OutputFiles&) = delete;
  OutputFiles& operator=(const OutputFiles&) = delete;
  // Removes the FILE.tmp of every file not committed.
  ~OutputFiles();

  // Writes through `write` to PATH.tmp. Throws an InputError where it cannot be written, and what
  // `write` throws; either way PATH.tmp is gone.
  void add(const std::string& path, const std::function<void(std::ostream&)>& write);
  // Renames every PATH.tmp to its PATH.
  void commit();

 private:
  std::vector<std::string> staged_;
};

// One file, all or none.
void write_file_atomically(const std::string& path, const std::function<void(std::ostream&)>& write);

}  // namespace scalecast
