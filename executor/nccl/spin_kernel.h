// The compute emulator of the NCCL transport: one GPU thread spinning on clock64() for a number
// of cycles, launched on the compute stream (host-callable, so C++ files need no nvcc).
#pragma once

#include <cuda_runtime_api.h>

namespace scalecast::executor {

// Enqueues the spin on `stream`; returns the launch's error code.
cudaError_t launch_spin(long long cycles, cudaStream_t stream);

}  // namespace scalecast::executor
