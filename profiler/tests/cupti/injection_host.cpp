// Plays the CUDA driver and NVTX for the injection library in tests without a GPU: loads it,
// hands it NVTX (InitializeInjectionNvtx2) and calls InitializeInjection as cuInit would.
#include <dlfcn.h>
#include <nvtx3/nvToolsExt.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

int main(int argc, char** argv) {
  if (argc < 2 || argc > 3 || (argc == 3 && std::strcmp(argv[2], "fork") != 0)) {
    std::fprintf(stderr, "usage: profiler_injection_host LIBRARY [fork]\n");
    return 2;
  }
  void* library = dlopen(argv[1], RTLD_NOW | RTLD_GLOBAL);
  if (!library) {
    std::fprintf(stderr, "dlopen: %s\n", dlerror());
    return 1;
  }
  auto nvtx = reinterpret_cast<NvtxInitializeInjectionNvtxFunc_t>(
      dlsym(library, "InitializeInjectionNvtx2"));
  auto init = reinterpret_cast<int (*)()>(dlsym(library, "InitializeInjection"));
  if (!nvtx || !init || nvtx(nullptr) != 1 || init() != 1) {
    std::fprintf(stderr, "the injection entry points failed\n");
    return 1;
  }
  if (argc == 3) {  // a child that exits normally must leave the parent's dump alone
    const pid_t child = fork();
    if (child == 0) std::exit(0);
    int status = 0;
    waitpid(child, &status, 0);
  }
  return 0;
}
