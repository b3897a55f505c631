# Build time: the quick test command (README, "Two commands") must fit in minutes on two cores.
# A test file's time goes mostly to instantiating and optimizing the same templates (GoogleTest's
# macros, nlohmann/json, fmt) again in every file: each test suite compiles its files eight at a
# time (unity batches) and optimizes its own code at -O1 (the libraries under test keep the build
# type's flags). The libraries stay one file at a time: their files share names in anonymous
# namespaces. The sanitizer build compiles every test file on its own (SCALECAST_UNITY_TESTS
# defaults to OFF there), so CI still sees a test file that lacks an #include.
if(SCALECAST_SANITIZE)
  set(_scalecast_unity_default OFF)
else()
  set(_scalecast_unity_default ON)
endif()
option(SCALECAST_UNITY_TESTS "Compile each test suite's files in batches of eight (unity build)"
       ${_scalecast_unity_default})
option(SCALECAST_TESTS_O1 "Optimize the test suites' own code at -O1" ON)

if(NOT SCALECAST_TESTS)
  return()
endif()
# The validation suite's files share names in anonymous namespaces: one file at a time. A test file
# that clashes with another in its batch can leave it: SKIP_UNITY_BUILD_INCLUSION ON.
foreach(_target scalecast_tests invariant_tests simgrid_tests calibration_tests
                scalecast_validation_tests profiler_tests executor_tests)
  if(NOT TARGET ${_target})
    continue()
  endif()
  if(SCALECAST_UNITY_TESTS AND NOT _target STREQUAL "scalecast_validation_tests")
    set_target_properties(${_target} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE 8)
  endif()
  if(SCALECAST_TESTS_O1)
    target_compile_options(${_target} PRIVATE $<$<CONFIG:Release,RelWithDebInfo>:-O1>)
  endif()
endforeach()
