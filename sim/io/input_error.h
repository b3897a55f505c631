// The one base class of bad input a user can fix (a file, a value, an option): every command
// prints what() as one line and exits with code 2, never 1.
#pragma once

#include <stdexcept>
#include <string>

namespace scalecast {

class InputError : public std::runtime_error {
 public:
  // `names_its_source`: what() already begins with the file (and line or field) it is about, so
  // it is printed as is; otherwise the command's name goes before it.
  explicit InputError(const std::string& what, bool names_its_source = false)
      : std::runtime_error(what), names_its_source_(names_its_source) {}
  bool names_its_source() const { return names_its_source_; }

 private:
  bool names_its_source_;
};

// An input error whose message begins with its file: scenario, schedule, timeline, profile,
// measured table, activity dump.
class SourceError : public InputError {
 public:
  explicit SourceError(const std::string& what) : InputError(what, true) {}
};

}  // namespace scalecast
