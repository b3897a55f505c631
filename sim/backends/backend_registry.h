// The backends by name, so the CLI can list and pick them: the analytical one is built in, others
// are added at start-up by the program that links them (the SimGrid backend, when SimGrid is found).
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "sim/backends/backend.h"

namespace scalecast {

struct BackendInfo {
  std::string name;
  std::string description;
  std::function<std::unique_ptr<Backend>(const BackendSettings&)> make;
};

// Adds a backend to the registry (the analytical one is always there).
void register_backend(BackendInfo info);
std::vector<BackendInfo> list_backends();
// Throws an InputError naming the known backends, or when `settings` has options that
// the backend does not take.
std::unique_ptr<Backend> make_backend(const std::string& name, const BackendSettings& settings = {});

}  // namespace scalecast
