// The backend registry: the analytical backend is built in, others are added at start-up by
// the program that links them (the SimGrid backend, when SimGrid is found).
#include "sim/backends/backend_registry.h"

#include <stdexcept>

#include "sim/backends/analytical/analytical_backend.h"
#include "sim/io/input_error.h"

namespace scalecast {
namespace {

std::vector<BackendInfo>& registry() {
  static std::vector<BackendInfo> backends = {
      {"analytical",
       "closed-form alpha-beta costs per collective and a list-scheduling pass over the DAG",
       [](const BackendSettings& settings) -> std::unique_ptr<Backend> {
         if (!settings.simgrid_args.empty())
           throw InputError("--cfg and --log are SimGrid's options: they need --backend simgrid");
         return std::make_unique<AnalyticalBackend>();
       }}};
  return backends;
}

}  // namespace

void register_backend(BackendInfo info) {
  for (auto& b : registry())
    if (b.name == info.name) {
      b = std::move(info);
      return;
    }
  registry().push_back(std::move(info));
}

std::vector<BackendInfo> list_backends() { return registry(); }

std::unique_ptr<Backend> make_backend(const std::string& name, const BackendSettings& settings) {
  std::string known;
  for (const auto& b : registry()) {
    if (b.name == name) return b.make(settings);
    known += (known.empty() ? "" : ", ") + b.name;
  }
  throw InputError("unknown backend '" + name + "' (known: " + known + ")");
}

}  // namespace scalecast
