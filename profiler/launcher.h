// Runs the program to profile with the CUPTI injection library and the dump path in its
// environment, and says where that library is.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace scalecast::profiler {

// The injection library `scalecast profile -- COMMAND` uses: $SCALECAST_CUPTI_LIB when set,
// else the libscalecast_cupti.so built with this scalecast; empty when built without CUDA.
std::string injection_library();

// The environment that makes a CUDA program record an activity dump to `dump_path`:
// CUDA_INJECTION64_PATH and NVTX_INJECTION64_PATH name `library`, SCALECAST_PROFILE_OUT the dump.
std::vector<std::pair<std::string, std::string>> profiling_environment(
    const std::string& library, const std::string& dump_path);

// Runs `command` (argv; the program is looked up in PATH) with this process's environment
// plus `extra_env` (overriding variables of the same name) and waits for it. Returns its exit
// status, or 128 + the signal number when a signal killed it. Throws std::runtime_error when
// the program cannot be started.
int run_command(const std::vector<std::string>& command,
                const std::vector<std::pair<std::string, std::string>>& extra_env);

}  // namespace scalecast::profiler
