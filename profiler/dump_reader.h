// Reads an activity dump (format in dump_format.h) and checks it: header and version, every
// field of every record, and the `end` trailer's record count, so truncation is detected.
#pragma once

#include <istream>
#include <stdexcept>
#include <string>

#include "profiler/activity.h"

namespace scalecast::profiler {

ActivityLog read_dump(const std::string& path);
// `label` names the source in error messages.
ActivityLog parse_dump(std::istream& in, const std::string& label);

}  // namespace scalecast::profiler
