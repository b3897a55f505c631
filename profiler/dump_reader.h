// Reads an activity dump (format in dump_format.h) and checks it: header and version, every
// field of every record, and the `end` trailer's record count, so truncation is detected.
#pragma once

#include <istream>
#include <stdexcept>
#include <string>

#include "profiler/activity.h"
#include "sim/io/input_error.h"

namespace scalecast::profiler {

// A dump that cannot be read: the message names the file, the line and byte offset, and what
// was expected there.
class DumpError : public SourceError {
 public:
  using SourceError::SourceError;
};

ActivityLog read_dump(const std::string& path);
// `label` names the source in error messages.
ActivityLog parse_dump(std::istream& in, const std::string& label);

}  // namespace scalecast::profiler
