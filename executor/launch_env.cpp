// Reads rank, world size and the rendezvous address from the environment, strictly: every value
// must be a whole number in range, and MASTER_ADDR/MASTER_PORT are required whichever launcher.
#include "executor/launch_env.h"
#include "sim/io/input_error.h"

#include <cstdlib>
#include <stdexcept>

namespace scalecast::executor {
namespace {

int integer(const char* name, const char* text, int lowest, int highest) {
  std::size_t used = 0;
  int value = 0;
  try {
    value = std::stoi(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || text[used] != '\0' || value < lowest || value > highest)
    throw InputError(std::string(name) + "='" + text + "': expected a whole number from " +
                     std::to_string(lowest) + " to " + std::to_string(highest));
  return value;
}

}  // namespace

LaunchEnv launch_env(const EnvLookup& lookup) {
  // torchrun / NCCL examples, then Open MPI, then MPICH and Intel MPI (PMI).
  const std::pair<const char*, const char*> launchers[] = {
      {"RANK", "WORLD_SIZE"}, {"OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE"}, {"PMI_RANK", "PMI_SIZE"}};
  LaunchEnv env;
  for (const auto& [rank_var, size_var] : launchers) {
    const char* rank = lookup(rank_var);
    if (rank == nullptr) continue;
    const char* size = lookup(size_var);
    if (size == nullptr) throw InputError(std::string(rank_var) + " is set but " + size_var + " is not");
    env.world_size = integer(size_var, size, 1, 1 << 20);
    env.rank = integer(rank_var, rank, 0, env.world_size - 1);
    env.source = rank_var;
    break;
  }
  if (env.source.empty())
    throw InputError(
        "no rank in the environment: set RANK and WORLD_SIZE (or run under mpirun), or use --local N");
  const char* addr = lookup("MASTER_ADDR");
  const char* port = lookup("MASTER_PORT");
  if (addr == nullptr || *addr == '\0' || port == nullptr)
    throw InputError("MASTER_ADDR and MASTER_PORT must name rank 0's host and a free port");
  env.master_addr = addr;
  env.master_port = integer("MASTER_PORT", port, 1, 65535);
  return env;
}

LaunchEnv launch_env_from_process() {
  return launch_env([](const char* name) { return std::getenv(name); });
}

}  // namespace scalecast::executor
