// How a command reports an error it stops on: one line for stderr and the exit code, by the kind
// of error (a user's input: 2; a bug, std::logic_error: 1 and "internal error"; anything else: 1).
#pragma once

#include <exception>
#include <string>

namespace scalecast {

struct Failure {
  std::string line;  // without the newline
  int exit_code = 1;
};

// `error` as `scalecast COMMAND` reports it. An InputError about a file begins with the file;
// every other line begins with "scalecast COMMAND: ".
Failure describe_failure(const std::string& command, const std::exception& error);

}  // namespace scalecast
