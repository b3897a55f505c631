// The one type of error a user can fix (a file, a value, an option, an output, a limit): every
// command prints what() as one line and exits with code 2; a bug throws std::logic_error (exit 1).
#pragma once

#include <stdexcept>
#include <string>

namespace scalecast {

// What the user has to fix, which also says how the message is printed.
enum class InputKind {
  value,    // a value or option they typed (a unit, a name, a size): the command's name goes first
  file,     // a file's content: what() begins with the file, and its line or key where known
  output,   // an output that cannot be written (a folder that is not there, a full disk)
  limit,    // a run larger than the work limits (--max-events, --max-memory)
  refused,  // ranks of a real run that disagree on what to run
};

class InputError : public std::runtime_error {
 public:
  explicit InputError(const std::string& what) : InputError(InputKind::value, what) {}
  InputError(InputKind kind, const std::string& what) : std::runtime_error(what), kind_(kind) {}
  InputKind kind() const { return kind_; }
  // what() already begins with the file (and line or key) it is about, so it is printed as is.
  bool names_its_source() const { return kind_ == InputKind::file; }

 private:
  InputKind kind_;
};

}  // namespace scalecast
