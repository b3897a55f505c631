// Where this process sits in a run, from the environment launchers set: torchrun-style RANK,
// WORLD_SIZE, MASTER_ADDR, MASTER_PORT, or mpirun's OMPI_COMM_WORLD_* / PMI_* with MASTER_*.
#pragma once

#include <functional>
#include <string>

namespace scalecast::executor {

struct LaunchEnv {
  int rank = 0;
  int world_size = 1;
  std::string master_addr;  // host of the rendezvous store (rank 0)
  int master_port = 0;
  std::string source;       // which variables gave the rank: "RANK", "OMPI_COMM_WORLD_RANK", ...
};

using EnvLookup = std::function<const char*(const char*)>;

// Throws an InputError naming the missing or malformed variable.
LaunchEnv launch_env(const EnvLookup& lookup);
LaunchEnv launch_env_from_process();

}  // namespace scalecast::executor
