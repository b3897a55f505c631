// Test helpers that run the real `scalecast` command: in a shell, or as separate rank processes
// with their own environment and logs, waited on with a bound.
#pragma once

#include <chrono>
#include <map>
#include <string>
#include <vector>

#include <sys/types.h>

namespace scalecast::executor::testing {

// `scalecast ARGS` through the shell; returns its exit code.
int run_cli(const std::string& args);
std::string read_text(const std::string& path);
// A fresh directory under the test temp dir.
std::string fresh_dir(const std::string& name);
// A schedule of the testbed scenario with mobilenet_v2 (small), written to path.
void write_schedule(const std::string& path, const std::string& method, int gpus, int iterations);

struct Rank {
  pid_t pid = -1;
  std::string log;  // stdout and stderr
};

// Starts `scalecast ARGS` with stdout and stderr to `log`, the launcher variables set as in
// `env` (an empty value unsets one), in a process group of its own when `own_group`.
pid_t spawn_cli(const std::vector<std::string>& args, const std::string& log,
                const std::map<std::string, std::string>& env, bool own_group = false);
// Starts `scalecast ARGS` as rank `rank` of `world` with the store at 127.0.0.1:port.
Rank start_rank(const std::vector<std::string>& args, int rank, int world, int port, const std::string& log);
// The exit code (128 + signal if killed), or -1 if it did not end in time (it is then killed).
int wait_rank(const Rank& r, std::chrono::milliseconds timeout);

}  // namespace scalecast::executor::testing
