// Adds the SimGrid replay to the backend registry under three names, one per expansion mode,
// so `--backend simgrid-full` can check a reduced prediction against the exact one.
#include "sim/simgrid/register.h"

#include "sim/backend.h"
#include "sim/simgrid/replay_backend.h"

namespace scalecast {
namespace {

void add(const std::string& name, const std::string& description,
         simgrid_backend::ExpansionMode mode) {
  register_backend({name, description, [name, mode](const BackendSettings& settings) {
                      simgrid_backend::ReplayOptions options;
                      options.expansion = mode;
                      options.engine_args = simgrid_backend::checked_engine_args(settings.simgrid_args);
                      return std::make_unique<SimgridBackend>(options, name);
                    }});
}

}  // namespace

void register_simgrid_backend() {
  using simgrid_backend::ExpansionMode;
  add("simgrid",
      "SimGrid S4U flow-level replay on a generated platform (CM02 sharing, calibrated transport); "
      "exact reductions above 16 GPUs",
      ExpansionMode::automatic);
  add("simgrid-full", "SimGrid replay with every transfer of every step simulated",
      ExpansionMode::full);
  add("simgrid-reduced", "SimGrid replay with its exact reductions at any size",
      ExpansionMode::reduced);
}

}  // namespace scalecast
