// Adds the SimGrid replay to the backend registry under three names, one per expansion mode,
// so `--backend simgrid-full` can check a reduced prediction against the exact one.
#include "sim/backends/simgrid/register.h"

#include "sim/backends/backend_registry.h"
#include "sim/backends/simgrid/replay_backend.h"

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
  for (const auto& v : simgrid_backend::replay_variants()) add(v.name, v.description, v.mode);
}

}  // namespace scalecast
