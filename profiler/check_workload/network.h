// The check workload's network: a stack of fully connected layers (cuBLAS SGEMM + bias/ReLU
// kernel) with a forward pass, a backward pass whose weight gradient runs on a second stream
// concurrently with the input gradient, a loss gradient and an SGD step.
#pragma once

#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <string>
#include <vector>

namespace scalecast::check {

// Throws std::runtime_error naming `what` unless the call succeeded.
void check(cudaError_t status, const char* what);
void check(cublasStatus_t status, const char* what);

class Network {
 public:
  // widths[0] is the input size; layer i maps widths[i] to widths[i + 1] features.
  Network(const std::vector<int>& widths, int batch, cudaStream_t main, cudaStream_t side);
  ~Network();
  Network(const Network&) = delete;
  Network& operator=(const Network&) = delete;

  int layers() const { return static_cast<int>(layers_.size()); }
  std::string name(int layer) const { return "fc" + std::to_string(layer + 1); }
  int64_t weight_bytes(int layer) const;
  int64_t bias_bytes(int layer) const;

  // Each call enqueues work on the streams and returns; NVTX ranges name its pieces.
  void forward(int layer);
  void loss();
  // Ends with the main stream waiting for the side stream.
  void backward(int layer);
  void sgd_step(float learning_rate);

 private:
  struct Layer {
    int in = 0;
    int out = 0;
    float* w = nullptr;
    float* b = nullptr;
    float* w_grad = nullptr;
    float* b_grad = nullptr;
    float* y = nullptr;     // out x batch, after bias and ReLU
    float* grad = nullptr;  // out x batch, gradient of the loss by y
  };
  const float* input_of(int layer) const;
  float* allocate(int64_t floats);

  int batch_;
  cudaStream_t main_;
  cudaStream_t side_;
  cublasHandle_t main_blas_ = nullptr;
  cublasHandle_t side_blas_ = nullptr;
  cudaEvent_t grad_ready_ = nullptr;
  cudaEvent_t side_done_ = nullptr;
  float* input_ = nullptr;
  std::vector<Layer> layers_;
  std::vector<float*> buffers_;
};

}  // namespace scalecast::check
