// Starting another program without a shell (posix_spawnp): gnuplot for plots, the profiled
// program for the profiler. One implementation of the spawn, wait and status decoding.
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace scalecast {

struct ProgramRun {
  std::vector<std::string> command;  // argv; the program is looked up in PATH
  // Added to this process's environment, replacing variables of the same name.
  std::vector<std::pair<std::string, std::string>> extra_env;
  std::string cwd;         // where it runs ("": here)
  std::string output_log;  // its stdout and stderr go to this file ("": to ours)
};

// Runs it and waits. Returns its exit status, or 128 + the signal number when a signal killed
// it, or -1 when it could not be started (not installed, not executable); `start_error` then
// says why. Throws std::logic_error (a bug of the caller) for an empty command.
int run_program(const ProgramRun& run, std::string* start_error = nullptr);

// Writes all of `size` bytes to `fd` (a pipe to another process), across interrupted and partial
// writes; false once the reader is gone.
bool write_all(int fd, const char* data, std::size_t size);
// Everything `fd` yields until its end (the other process closed it or exited).
std::string read_to_end(int fd);

}  // namespace scalecast
