// Registration of the SimGrid backends with the backend registry: "simgrid" (reductions above
// 16 GPUs where they apply), "simgrid-full" and "simgrid-reduced" to force either expansion.
#pragma once

namespace scalecast {

void register_simgrid_backend();

}  // namespace scalecast
