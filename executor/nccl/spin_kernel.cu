// A kernel that keeps one SM busy for a given number of clock64() cycles, so a compute task
// occupies the GPU's compute stream for its duration while NCCL runs on the comm stream.
#include "executor/nccl/spin_kernel.h"

namespace scalecast::executor {
namespace {

__global__ void spin(long long cycles) {
  const long long start = clock64();
  while (clock64() - start < cycles) {
  }
}

}  // namespace

cudaError_t launch_spin(long long cycles, cudaStream_t stream) {
  spin<<<1, 1, 0, stream>>>(cycles);
  return cudaGetLastError();
}

}  // namespace scalecast::executor
