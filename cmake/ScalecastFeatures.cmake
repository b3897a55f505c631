# The configure step's last words: which parts of scalecast are built, with the version of what
# they use or why they are not, and the packages found (CMake's FeatureSummary).

add_feature_info("analytical core" ON "predict, validate, calibrate with the analytical backend")
add_feature_info("SimGrid backend" SCALECAST_SIMGRID_USABLE "${SCALECAST_SIMGRID_STATUS}")
if(SCALECAST_PROFILER)
  add_feature_info("CUDA profiler" SCALECAST_PROFILER_CUDA
    "CUPTI injection and check workload; dump attribution always")
else()
  add_feature_info("CUDA profiler" OFF "off (SCALECAST_PROFILER=OFF)")
endif()
if(SCALECAST_EXECUTOR)
  add_feature_info("NCCL executor" SCALECAST_EXECUTOR_NCCL "execute on GPUs (needs nvcc, CUDA toolkit, NCCL)")
  add_feature_info("Gloo executor" SCALECAST_EXECUTOR_GLOO "execute over TCP on CPUs (needs libgloo-dev)")
else()
  add_feature_info("NCCL executor" OFF "off (SCALECAST_EXECUTOR=OFF)")
  add_feature_info("Gloo executor" OFF "off (SCALECAST_EXECUTOR=OFF)")
endif()
add_feature_info("tests" SCALECAST_TESTS "GoogleTest ${GTest_VERSION} suites run by ctest")
add_feature_info("benchmarks" SCALECAST_BENCH "Google Benchmark ${benchmark_VERSION}, run by scripts/bench")
add_feature_info("fuzzers" SCALECAST_FUZZ "libFuzzer harnesses of fuzz/, run by scripts/fuzz")
feature_summary(WHAT ENABLED_FEATURES DISABLED_FEATURES PACKAGES_FOUND PACKAGES_NOT_FOUND
                DESCRIPTION "scalecast ${PROJECT_VERSION}: what this build has" QUIET_ON_EMPTY)
