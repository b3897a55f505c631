// Atomic output: write PATH.tmp completely, check the stream, then rename(2) over PATH.
#include "profiler/atomic_file.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <stdexcept>

namespace scalecast::profiler {

void write_file_atomically(const std::string& path,
                           const std::function<void(std::ostream&)>& write) {
  const std::string tmp = path + ".tmp";
  try {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out)
      throw std::runtime_error(path + ": cannot create " + tmp + ": " + std::strerror(errno));
    write(out);
    out.close();
    if (!out) throw std::runtime_error(path + ": error while writing " + tmp);
    if (std::rename(tmp.c_str(), path.c_str()) != 0) {
      throw std::runtime_error(path + ": cannot rename " + tmp + " to it: " + std::strerror(errno));
    }
  } catch (...) {
    std::remove(tmp.c_str());
    throw;
  }
}

}  // namespace scalecast::profiler
