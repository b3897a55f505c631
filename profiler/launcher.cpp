// Starts the profiled program with posix_spawnp and an environment extended with the
// injection variables; waits for it and reports its exit status.
#include "profiler/launcher.h"

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

extern char** environ;

namespace scalecast::profiler {

std::string injection_library() {
  if (const char* from_env = std::getenv("SCALECAST_CUPTI_LIB"); from_env && *from_env) {
    return from_env;
  }
#ifdef SCALECAST_CUPTI_LIBRARY
  return SCALECAST_CUPTI_LIBRARY;
#else
  return "";
#endif
}

std::vector<std::pair<std::string, std::string>> profiling_environment(
    const std::string& library, const std::string& dump_path) {
  // NVTX loads the same library, which hands NVTX on to the CUPTI it is linked with.
  return {{"CUDA_INJECTION64_PATH", library},
          {"NVTX_INJECTION64_PATH", library},
          {"SCALECAST_PROFILE_OUT", dump_path}};
}

int run_command(const std::vector<std::string>& command,
                const std::vector<std::pair<std::string, std::string>>& extra_env) {
  if (command.empty()) throw std::runtime_error("no command to run");
  std::vector<std::string> env_strings;
  for (char** entry = environ; *entry != nullptr; ++entry) {
    const std::string variable(*entry);
    const std::string name = variable.substr(0, variable.find('='));
    bool overridden = false;
    for (const auto& [key, value] : extra_env) overridden = overridden || key == name;
    if (!overridden) env_strings.push_back(variable);
  }
  for (const auto& [key, value] : extra_env) env_strings.push_back(key + "=" + value);

  std::vector<char*> argv;
  for (const std::string& arg : command) argv.push_back(const_cast<char*>(arg.c_str()));
  argv.push_back(nullptr);
  std::vector<char*> envp;
  for (std::string& variable : env_strings) envp.push_back(variable.data());
  envp.push_back(nullptr);

  pid_t pid = 0;
  const int error = posix_spawnp(&pid, argv[0], nullptr, nullptr, argv.data(), envp.data());
  if (error != 0) {
    throw std::runtime_error("cannot run '" + command[0] + "': " + std::strerror(error));
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) throw std::runtime_error(std::string("waitpid: ") + std::strerror(errno));
  }
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return WEXITSTATUS(status);
}

}  // namespace scalecast::profiler
