// Writes an output file all at once or not at all: the content goes to FILE.tmp, which is
// renamed over FILE only when complete, so a failure never leaves a half-written FILE.
#pragma once

#include <functional>
#include <ostream>
#include <string>

namespace scalecast::profiler {

// Calls `write` on a stream to PATH.tmp, then renames it to PATH. If `write` throws or the
// file cannot be written, PATH.tmp is removed and the error (std::runtime_error naming the
// file, or what `write` threw) propagates.
void write_file_atomically(const std::string& path,
                           const std::function<void(std::ostream&)>& write);

}  // namespace scalecast::profiler
