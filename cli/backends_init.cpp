// Registers the optional backends this build offers (SimGrid's replay, run by scalecast-simgrid
// when that program was built beside this one), so that `--backend` and `scalecast backends` see
// them.
#include "cli/simgrid_process.h"

namespace {

const bool registered = [] {
  scalecast::cli::register_simgrid_process_backends();
  return true;
}();

}  // namespace
