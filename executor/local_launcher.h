// `--local N`: runs N ranks of this very command on this machine, as a launcher would (RANK,
// WORLD_SIZE, MASTER_ADDR=127.0.0.1, MASTER_PORT of a free port), for tests and quick checks.
#pragma once

#include <chrono>
#include <string>
#include <vector>

namespace scalecast::executor {

// Starts `ranks` copies of /proc/self/exe with `args` and waits for them. When one fails, the
// others get `grace` to stop on their own before they are killed. Returns 0 when every rank
// succeeded, else the exit code of the first rank that failed (128 + signal if one was killed),
// after one line on stderr per failed rank. Throws an InputError in a process that a
// launcher started (RANK, or mpirun's rank variable, is set): ranks never launch ranks.
int launch_local(int ranks, const std::vector<std::string>& args, std::chrono::milliseconds grace);

// A TCP port on 127.0.0.1 that nothing listens on right now.
int free_local_port();

}  // namespace scalecast::executor
