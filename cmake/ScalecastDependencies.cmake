# Finds every dependency with the range of versions scalecast is built and tested with, and only
# for the parts that are on; an optional part whose dependency is missing or out of range is off.

# Checks a required package just found: stops the configure step when its version is outside
# [LOW, HIGH), and lists it in the feature summary with that version and what it is for.
function(scalecast_require_range name low high purpose)
  set(version "${${name}_VERSION}")
  if(version VERSION_LESS low OR NOT version VERSION_LESS high)
    message(FATAL_ERROR "${name} ${version} found, but scalecast supports ${name} >= ${low} and < ${high}")
  endif()
  set_package_properties(${name} PROPERTIES TYPE REQUIRED
    DESCRIPTION "version ${version} (supported: >= ${low}, < ${high})" PURPOSE "${purpose}")
endfunction()

# --- Always: the core library, calibration and the command-line tool --------------------------
find_package(Eigen3 3.3 REQUIRED NO_MODULE)
scalecast_require_range(Eigen3 3.3 3.5 "least-squares fits of calibrate")
find_package(Boost 1.71 REQUIRED COMPONENTS program_options)
scalecast_require_range(Boost 1.71 2.0 "inline small vectors of the core (Container, headers), command-line options (program_options)")
find_package(yaml-cpp 0.6 REQUIRED)
scalecast_require_range(yaml-cpp 0.6 0.9 "scenario and cluster files")
find_package(nlohmann_json 3.9 REQUIRED)
scalecast_require_range(nlohmann_json 3.9 4.0 "schedules, timelines, traces")
find_package(fmt 9 REQUIRED)
scalecast_require_range(fmt 9.0 12.0 "number formatting checked at compile time")

# --- Tests and benchmarks, when they are on ------------------------------------------------------
if(SCALECAST_TESTS)
  find_package(GTest 1.10 REQUIRED)
  scalecast_require_range(GTest 1.10 2.0 "the test suites (SCALECAST_TESTS)")
endif()
if(SCALECAST_BENCH)
  find_package(benchmark 1.5 REQUIRED)
  scalecast_require_range(benchmark 1.5 2.0 "bench/ and scripts/bench (SCALECAST_BENCH)")
endif()

# --- SimGrid backend: optional. The code uses S4U calls (Comm::wait_any, create_star_zone) that
# SimGrid 3.35 and later deprecate, so newer releases fail under -Werror: they are left out here.
set(SCALECAST_SIMGRID_MIN 3.32)
set(SCALECAST_SIMGRID_BELOW 3.35)
set(SCALECAST_SIMGRID_STATUS "off (SCALECAST_SIMGRID=OFF)")
set(SCALECAST_SIMGRID_USABLE OFF)
if(SCALECAST_SIMGRID)
  find_package(PkgConfig)
  if(PKG_CONFIG_FOUND)
    pkg_check_modules(SIMGRID QUIET IMPORTED_TARGET simgrid)
  endif()
  if(NOT PKG_CONFIG_FOUND)
    set(SCALECAST_SIMGRID_STATUS "not built: pkg-config not found (apt install pkg-config)")
  elseif(NOT SIMGRID_FOUND)
    set(SCALECAST_SIMGRID_STATUS "not built: pkg-config finds no simgrid (apt install libsimgrid-dev)")
  elseif(SIMGRID_VERSION VERSION_LESS SCALECAST_SIMGRID_MIN
         OR NOT SIMGRID_VERSION VERSION_LESS SCALECAST_SIMGRID_BELOW)
    set(SCALECAST_SIMGRID_STATUS "not built: SimGrid ${SIMGRID_VERSION} found, supported >= ${SCALECAST_SIMGRID_MIN} and < ${SCALECAST_SIMGRID_BELOW}")
  else()
    set(SCALECAST_SIMGRID_USABLE ON)
    set(SCALECAST_SIMGRID_STATUS "SimGrid ${SIMGRID_VERSION}")
  endif()
  if(NOT SCALECAST_SIMGRID_USABLE)
    message(STATUS "scalecast SimGrid backend ${SCALECAST_SIMGRID_STATUS}")
  endif()
endif()
