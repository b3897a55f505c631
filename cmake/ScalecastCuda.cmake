# Helpers for the optional GPU parts (profiler, executor's NCCL transport): finding nvcc and the
# CUDA toolkit (/usr/local/cuda, sm_90 by default), and keeping C++ warning flags away from nvcc.

# The top level adds -Wall/-Werror/... for every language; nvcc rejects them, so in the calling
# directory they apply to C++ sources only.
macro(scalecast_cxx_only_compile_options)
  get_directory_property(_scalecast_options COMPILE_OPTIONS)
  set(_scalecast_cxx_options "")
  foreach(_option IN LISTS _scalecast_options)
    list(APPEND _scalecast_cxx_options "$<$<COMPILE_LANGUAGE:CXX>:${_option}>")
  endforeach()
  set_directory_properties(PROPERTIES COMPILE_OPTIONS "${_scalecast_cxx_options}")
endmacro()

macro(scalecast_find_cuda_toolkit)
  if(NOT CMAKE_CUDA_COMPILER AND EXISTS /usr/local/cuda/bin/nvcc)
    set(CMAKE_CUDA_COMPILER /usr/local/cuda/bin/nvcc)
  endif()
  if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
    set(CMAKE_CUDA_ARCHITECTURES 90)  # Hopper (H100, H200)
  endif()
  include(CheckLanguage)
  check_language(CUDA)
  if(CMAKE_CUDA_COMPILER)
    if(NOT CUDAToolkit_ROOT)
      get_filename_component(_nvcc_bin "${CMAKE_CUDA_COMPILER}" DIRECTORY)
      get_filename_component(CUDAToolkit_ROOT "${_nvcc_bin}" DIRECTORY)
    endif()
    find_package(CUDAToolkit)
  endif()
endmacro()
