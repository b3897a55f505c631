// fork + pipe: the child writes one status byte (0 ok, 1 error) and its payload, then _exits
// without running the parent's atexit handlers; the parent reads to EOF and reaps the child.
#include "sim/backends/simgrid/isolated_run.h"

#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <stdexcept>

#include "sim/io/run_program.h"

namespace scalecast::simgrid_backend {
namespace {

[[noreturn]] void child(int fd, const std::function<std::string()>& body) {
  char status = 0;
  std::string payload;
  try {
    payload = body();
  } catch (const std::exception& e) {
    status = 1;
    payload = e.what();
  } catch (...) {
    status = 1;
    payload = "unknown error";
  }
  const bool ok = write_all(fd, &status, 1) && write_all(fd, payload.data(), payload.size());
  close(fd);
  _exit(ok ? 0 : 3);
}

std::runtime_error failure(const std::string& what) {
  return std::runtime_error("simgrid replay: " + what);
}

}  // namespace

std::string run_isolated(const std::function<std::string()>& body) {
  std::cout.flush();
  std::cerr.flush();
  std::fflush(nullptr);  // nothing buffered may be written twice
  int fds[2];
  if (pipe(fds) != 0) throw failure(std::string("pipe: ") + std::strerror(errno));
  const pid_t pid = fork();
  if (pid < 0) {
    const int err = errno;
    close(fds[0]);
    close(fds[1]);
    throw failure(std::string("fork: ") + std::strerror(err));
  }
  if (pid == 0) {
    close(fds[0]);
    child(fds[1], body);
  }
  close(fds[1]);
  const std::string data = read_to_end(fds[0]);
  close(fds[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFSIGNALED(status))
    throw failure(std::string("the simulating process died (") + strsignal(WTERMSIG(status)) + ")");
  if (data.empty()) throw failure("the simulating process exited without a result");
  if (data[0] != 0) throw failure(data.substr(1));
  return data.substr(1);
}

}  // namespace scalecast::simgrid_backend
