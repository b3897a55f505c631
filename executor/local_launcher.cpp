// Fork-and-exec of the local ranks with their launcher variables, and a wait that reports each
// rank that failed and bounds how long the others may linger after the first failure.
#include "executor/local_launcher.h"
#include "sim/io/input_error.h"

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <map>
#include <stdexcept>
#include <thread>

#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

namespace scalecast::executor {

int free_local_port() {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof addr;
  if (fd < 0 || ::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 ||
      ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) != 0) {
    if (fd >= 0) ::close(fd);
    throw std::runtime_error("cannot find a free local port: " + std::string(std::strerror(errno)));
  }
  ::close(fd);
  return ntohs(addr.sin_port);
}

int launch_local(int ranks, const std::vector<std::string>& args, std::chrono::milliseconds grace) {
  if (ranks < 1) throw InputError("--local needs at least 1 rank");
  // A rank that a launcher started (this one or mpirun/torchrun) never launches ranks itself.
  for (const char* var : {"RANK", "OMPI_COMM_WORLD_RANK", "PMI_RANK"})
    if (std::getenv(var))
      throw InputError(std::string("--local cannot be used by a process a launcher started (") + var +
                       " is set)");
  const std::string port = std::to_string(free_local_port());
  std::vector<std::string> argv_text = {"scalecast"};
  argv_text.insert(argv_text.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : argv_text) argv.push_back(a.data());
  argv.push_back(nullptr);

  std::map<pid_t, int> children;  // pid -> rank
  for (int r = 0; r < ranks; ++r) {
    const pid_t pid = ::fork();
    if (pid < 0) throw std::runtime_error("cannot start rank " + std::to_string(r) + ": " + std::strerror(errno));
    if (pid == 0) {
      ::setenv("RANK", std::to_string(r).c_str(), 1);
      ::setenv("WORLD_SIZE", std::to_string(ranks).c_str(), 1);
      ::setenv("MASTER_ADDR", "127.0.0.1", 1);
      ::setenv("MASTER_PORT", port.c_str(), 1);
      ::execv("/proc/self/exe", argv.data());
      std::cerr << "scalecast: cannot run rank " << r << ": " << std::strerror(errno) << '\n';
      std::_Exit(127);
    }
    children[pid] = r;
  }

  int first_failure = 0;
  auto deadline = std::chrono::steady_clock::time_point::max();
  while (!children.empty()) {
    int status = 0;
    const pid_t pid = ::waitpid(-1, &status, WNOHANG);
    if (pid < 0 && errno != EINTR) break;
    if (pid <= 0) {
      if (std::chrono::steady_clock::now() > deadline) {
        for (const auto& [child, rank] : children) {
          std::cerr << "scalecast: rank " << rank << " did not stop after the first failure; killing it\n";
          ::kill(child, SIGKILL);
        }
        deadline = std::chrono::steady_clock::time_point::max();
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
      continue;
    }
    const auto it = children.find(pid);
    if (it == children.end()) continue;
    const int rank = it->second;
    children.erase(it);
    int code = 0;
    if (WIFEXITED(status) && WEXITSTATUS(status) != 0) {
      code = WEXITSTATUS(status);
      std::cerr << "scalecast: rank " << rank << " exited with code " << code << '\n';
    } else if (WIFSIGNALED(status)) {
      code = 128 + WTERMSIG(status);
      std::cerr << "scalecast: rank " << rank << " was killed by signal " << WTERMSIG(status) << " ("
                << ::strsignal(WTERMSIG(status)) << ")\n";
    }
    if (code != 0 && first_failure == 0) {
      first_failure = code;
      deadline = std::chrono::steady_clock::now() + grace;
    }
  }
  return first_failure;
}

}  // namespace scalecast::executor
