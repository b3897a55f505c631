# Build time: the quick test command (README, "Two commands") must fit in minutes on two cores.
# A test file's time goes mostly to instantiating and optimizing GoogleTest's macros and the
# templates they expand: the test suites' own code is optimized at -O1 (the libraries under test
# keep the build type's flags). No unity batches: the files of a suite share names in anonymous
# namespaces, and a batch's members change as files are added.
option(SCALECAST_TESTS_O1 "Optimize the test suites' own code at -O1" ON)

if(NOT SCALECAST_TESTS OR NOT SCALECAST_TESTS_O1)
  return()
endif()
foreach(_target scalecast_tests invariant_tests simgrid_tests calibration_tests
                scalecast_validation_tests profiler_tests executor_tests)
  if(TARGET ${_target})
    target_compile_options(${_target} PRIVATE $<$<CONFIG:Release,RelWithDebInfo>:-O1>)
  endif()
endforeach()
