// Registers the optional backends this build links (SimGrid when it was found), so that
// `--backend` and `scalecast backends` see them.
#include "sim/backend.h"
#ifdef SCALECAST_HAVE_SIMGRID
#include "sim/simgrid/register.h"
#endif

namespace {

const bool registered = [] {
#ifdef SCALECAST_HAVE_SIMGRID
  scalecast::register_simgrid_backend();
#endif
  return true;
}();

}  // namespace
