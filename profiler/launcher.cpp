// Starts the profiled program (sim/io/run_program) with an environment extended with the
// injection variables; waits for it and reports its exit status.
#include "profiler/launcher.h"

#include <cstdlib>
#include <stdexcept>

#include "sim/io/run_program.h"

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
  std::string why;
  const int status = run_program({command, extra_env, "", ""}, &why);
  if (status < 0) throw std::runtime_error("cannot run '" + command[0] + "': " + why);
  return status;
}

}  // namespace scalecast::profiler
