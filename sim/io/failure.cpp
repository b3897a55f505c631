// How a command reports an error it stops on: one line for stderr and the exit code, by the kind
// of error.
#include "sim/io/failure.h"

#include <stdexcept>

#include "sim/io/input_error.h"

namespace scalecast {

Failure describe_failure(const std::string& command, const std::exception& error) {
  const std::string prefix = "scalecast " + command + ": ";
  if (const auto* input = dynamic_cast<const InputError*>(&error))
    return {(input->names_its_source() ? "" : prefix) + input->what(), 2};
  if (dynamic_cast<const std::logic_error*>(&error))
    return {prefix + "internal error (a bug of scalecast's, not of the input): " + error.what(), 1};
  return {prefix + "error: " + error.what(), 1};
}

}  // namespace scalecast
