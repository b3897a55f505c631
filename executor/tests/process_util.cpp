// Spawning and waiting for rank processes in tests (fork/exec with the launcher variables).
#include "process_util.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

namespace scalecast::executor::testing {

int run_cli(const std::string& args) {
  const int status = std::system((std::string(SCALECAST_CLI) + " " + args).c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string fresh_dir(const std::string& name) {
  const auto dir = std::filesystem::path(::testing::TempDir()) / ("executor_" + name + "_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir.string();
}

void write_schedule(const std::string& path, const std::string& method, int gpus, int iterations) {
  const std::string args = "schedule " SCALECAST_SOURCE_DIR "/scenarios/testbed-4x1gbps.yaml --method " + method +
                           " --gpus " + std::to_string(gpus) + " --set model.name=mobilenet_v2 --set iterations=" +
                           std::to_string(iterations) + " -o " + path;
  ASSERT_EQ(run_cli(args), 0) << args;
}

pid_t spawn_cli(const std::vector<std::string>& args, const std::string& log,
                const std::map<std::string, std::string>& env, bool own_group) {
  const pid_t pid = ::fork();
  if (pid != 0) return pid;
  if (own_group) ::setpgid(0, 0);
  const int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  ::dup2(fd, 1);
  ::dup2(fd, 2);
  for (const auto& [name, value] : env) {
    if (value.empty()) ::unsetenv(name.c_str());
    else ::setenv(name.c_str(), value.c_str(), 1);
  }
  std::vector<std::string> text = {SCALECAST_CLI};
  text.insert(text.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : text) argv.push_back(a.data());
  argv.push_back(nullptr);
  ::execv(SCALECAST_CLI, argv.data());
  std::_Exit(127);
}

Rank start_rank(const std::vector<std::string>& args, int rank, int world, int port, const std::string& log) {
  Rank r;
  r.log = log;
  r.pid = spawn_cli(args, log,
                    {{"RANK", std::to_string(rank)},
                     {"WORLD_SIZE", std::to_string(world)},
                     {"MASTER_ADDR", "127.0.0.1"},
                     {"MASTER_PORT", std::to_string(port)}});
  return r;
}

int wait_rank(const Rank& r, std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    int status = 0;
    if (::waitpid(r.pid, &status, WNOHANG) == r.pid)
      return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    if (std::chrono::steady_clock::now() > deadline) {
      ::kill(r.pid, SIGKILL);
      ::waitpid(r.pid, &status, 0);
      return -1;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

}  // namespace scalecast::executor::testing
