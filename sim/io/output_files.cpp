// Staged output files: written to PATH.tmp, checked, and renamed together by commit(); the
// destructor removes what was never committed.
#include "sim/io/output_files.h"
#include "sim/io/input_error.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>

namespace scalecast {

OutputFiles::~OutputFiles() {
  for (const auto& path : staged_) std::remove((path + ".tmp").c_str());
}

void OutputFiles::add(const std::string& path, const std::function<void(std::ostream&)>& write) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::file_status status = fs::status(path, ec);
  if (fs::is_directory(status)) throw InputError(InputKind::output, path + ": expected a file that can be written, got a folder");
  if (fs::exists(status) && !fs::is_regular_file(status)) {
    // A device or a pipe (/dev/null, /dev/stdout, a FIFO) is written as it is: staging a file
    // beside it and renaming that over it would replace the device with a plain file.
    std::ofstream out(path, std::ios::binary);
    if (!out) throw InputError(InputKind::output, path + ": expected a file that can be written, got " + std::strerror(errno));
    write(out);
    out.close();
    if (!out) throw InputError(InputKind::output, path + ": expected a file that can be written, got an error while writing");
    return;
  }
  const std::string tmp = path + ".tmp";
  std::erase(staged_, path);
  try {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) throw InputError(InputKind::output, path + ": expected a file that can be written, got " + std::strerror(errno));
    write(out);
    out.close();
    if (!out) throw InputError(InputKind::output, path + ": expected a file that can be written, got an error while writing");
  } catch (...) {
    std::remove(tmp.c_str());
    throw;
  }
  staged_.push_back(path);
}

void OutputFiles::commit() {
  while (!staged_.empty()) {
    const std::string path = staged_.front();
    if (std::rename((path + ".tmp").c_str(), path.c_str()) != 0)
      throw InputError(InputKind::output, path + ": expected a file that can be written, got " + std::strerror(errno));
    staged_.erase(staged_.begin());
  }
}

void write_file_atomically(const std::string& path, const std::function<void(std::ostream&)>& write) {
  OutputFiles files;
  files.add(path, write);
  files.commit();
}

}  // namespace scalecast
