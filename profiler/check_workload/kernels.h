// The check workload's custom CUDA kernels, behind plain C++ launch functions so host code
// compiles without nvcc. Matrices are column-major, `rows` x `cols` (rows = features).
#pragma once

#include <cuda_runtime.h>

namespace scalecast::check {

// Fills `n` floats with deterministic values in [-scale, scale].
void fill_uniform(float* data, long n, float scale, unsigned seed, cudaStream_t stream);
// y[r, c] = max(0, y[r, c] + bias[r]), in place.
void bias_relu_forward(float* y, const float* bias, int rows, int cols, cudaStream_t stream);
// grad[r, c] = 0 where y[r, c] <= 0 (backward of ReLU, in place).
void relu_backward(float* grad, const float* y, int rows, int cols, cudaStream_t stream);
// bias_grad[r] = sum over c of grad[r, c].
void bias_gradient(float* bias_grad, const float* grad, int rows, int cols, cudaStream_t stream);
// grad = (y - 1) / cols: the gradient of a mean squared error against a target of ones.
void loss_gradient(float* grad, const float* y, int rows, int cols, cudaStream_t stream);
// w -= lr * w_grad (SGD step).
void sgd_step(float* w, const float* w_grad, long n, float lr, cudaStream_t stream);
// Keeps `stream` busy for `nanoseconds` with one spinning thread.
void hold(long long nanoseconds, cudaStream_t stream);

}  // namespace scalecast::check
