// The check workload's custom kernels: initialization, bias + ReLU forward and backward,
// bias gradient (row sums), loss gradient, the SGD update and a stream-holding spin.
#include "profiler/check_workload/kernels.h"

namespace scalecast::check {
namespace {

constexpr int kThreads = 256;

unsigned blocks_for(long n) { return static_cast<unsigned>((n + kThreads - 1) / kThreads); }

__global__ void fill_uniform_kernel(float* data, long n, float scale, unsigned seed) {
  const long i = blockIdx.x * static_cast<long>(blockDim.x) + threadIdx.x;
  if (i >= n) return;
  unsigned x = static_cast<unsigned>(i) * 2654435761u ^ seed;
  x ^= x >> 16;
  x *= 0x7feb352du;
  x ^= x >> 15;
  data[i] = scale * (static_cast<float>(x) / 4294967295.0f * 2.0f - 1.0f);
}

__global__ void bias_relu_kernel(float* y, const float* bias, int rows, long n) {
  const long i = blockIdx.x * static_cast<long>(blockDim.x) + threadIdx.x;
  if (i < n) y[i] = fmaxf(0.0f, y[i] + bias[i % rows]);
}

__global__ void relu_backward_kernel(float* grad, const float* y, long n) {
  const long i = blockIdx.x * static_cast<long>(blockDim.x) + threadIdx.x;
  if (i < n && y[i] <= 0.0f) grad[i] = 0.0f;
}

// One block per row; threads stride over the columns and reduce in shared memory.
__global__ void bias_gradient_kernel(float* bias_grad, const float* grad, int rows, int cols) {
  __shared__ float partial[kThreads];
  const int row = blockIdx.x;
  float sum = 0.0f;
  for (int c = threadIdx.x; c < cols; c += blockDim.x)
    sum += grad[static_cast<long>(c) * rows + row];
  partial[threadIdx.x] = sum;
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) bias_grad[row] = partial[0];
}

__global__ void loss_gradient_kernel(float* grad, const float* y, long n, float inv_cols) {
  const long i = blockIdx.x * static_cast<long>(blockDim.x) + threadIdx.x;
  if (i < n) grad[i] = (y[i] - 1.0f) * inv_cols;
}

__global__ void sgd_kernel(float* w, const float* w_grad, long n, float lr) {
  const long i = blockIdx.x * static_cast<long>(blockDim.x) + threadIdx.x;
  if (i < n) w[i] -= lr * w_grad[i];
}

__device__ long long global_ns() {
  long long ns = 0;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(ns));
  return ns;
}

__global__ void hold_kernel(long long nanoseconds) {
  const long long start = global_ns();
  while (global_ns() - start < nanoseconds) {
  }
}

}  // namespace

void fill_uniform(float* data, long n, float scale, unsigned seed, cudaStream_t stream) {
  fill_uniform_kernel<<<blocks_for(n), kThreads, 0, stream>>>(data, n, scale, seed);
}

void bias_relu_forward(float* y, const float* bias, int rows, int cols, cudaStream_t stream) {
  const long n = static_cast<long>(rows) * cols;
  bias_relu_kernel<<<blocks_for(n), kThreads, 0, stream>>>(y, bias, rows, n);
}

void relu_backward(float* grad, const float* y, int rows, int cols, cudaStream_t stream) {
  const long n = static_cast<long>(rows) * cols;
  relu_backward_kernel<<<blocks_for(n), kThreads, 0, stream>>>(grad, y, n);
}

void bias_gradient(float* bias_grad, const float* grad, int rows, int cols, cudaStream_t stream) {
  bias_gradient_kernel<<<static_cast<unsigned>(rows), kThreads, 0, stream>>>(bias_grad, grad, rows,
                                                                             cols);
}

void loss_gradient(float* grad, const float* y, int rows, int cols, cudaStream_t stream) {
  const long n = static_cast<long>(rows) * cols;
  loss_gradient_kernel<<<blocks_for(n), kThreads, 0, stream>>>(grad, y, n,
                                                               1.0f / static_cast<float>(cols));
}

void sgd_step(float* w, const float* w_grad, long n, float lr, cudaStream_t stream) {
  sgd_kernel<<<blocks_for(n), kThreads, 0, stream>>>(w, w_grad, n, lr);
}

void hold(long long nanoseconds, cudaStream_t stream) { hold_kernel<<<1, 1, 0, stream>>>(nanoseconds); }

}  // namespace scalecast::check
