// Measured data that contradicts its scenario or its own file (a batch size, a node count, a
// missing testbed): what() is one line naming the file and line; exit code 2.
#pragma once

#include "sim/io/input_error.h"

namespace scalecast::validation {

class DataError : public SourceError {
 public:
  using SourceError::SourceError;
};

}  // namespace scalecast::validation
