// The check workload's layers: column-major SGEMMs through cuBLAS and the custom kernels,
// each piece inside its own NVTX range (nested inside the caller's fwd:/bwd: layer range).
#include "profiler/check_workload/network.h"

#include <nvtx3/nvToolsExt.h>

#include <stdexcept>

#include "profiler/check_workload/kernels.h"

namespace scalecast::check {
namespace {

// An NVTX push/pop range for the lifetime of the object.
class NvtxRange {
 public:
  explicit NvtxRange(const char* name) { nvtxRangePushA(name); }
  ~NvtxRange() { nvtxRangePop(); }
  NvtxRange(const NvtxRange&) = delete;
  NvtxRange& operator=(const NvtxRange&) = delete;
};

}  // namespace

void check(cudaError_t status, const char* what) {
  if (status != cudaSuccess) {
    throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(status));
  }
}

void check(cublasStatus_t status, const char* what) {
  if (status != CUBLAS_STATUS_SUCCESS) {
    throw std::runtime_error(std::string(what) + ": cuBLAS status " +
                             std::to_string(static_cast<int>(status)));
  }
}

Network::Network(const std::vector<int>& widths, int batch, cudaStream_t main, cudaStream_t side)
    : batch_(batch), main_(main), side_(side) {
  if (widths.size() < 2) throw std::invalid_argument("the network needs at least one layer");
  check(cublasCreate(&main_blas_), "cublasCreate");
  check(cublasCreate(&side_blas_), "cublasCreate");
  check(cublasSetStream(main_blas_, main_), "cublasSetStream");
  check(cublasSetStream(side_blas_, side_), "cublasSetStream");
  check(cudaEventCreateWithFlags(&grad_ready_, cudaEventDisableTiming), "cudaEventCreate");
  check(cudaEventCreateWithFlags(&side_done_, cudaEventDisableTiming), "cudaEventCreate");
  input_ = allocate(int64_t{widths[0]} * batch);
  fill_uniform(input_, int64_t{widths[0]} * batch, 1.0f, 1u, main_);
  for (size_t i = 0; i + 1 < widths.size(); ++i) {
    Layer layer;
    layer.in = widths[i];
    layer.out = widths[i + 1];
    const int64_t weights = int64_t{layer.in} * layer.out;
    layer.w = allocate(weights);
    layer.b = allocate(layer.out);
    layer.w_grad = allocate(weights);
    layer.b_grad = allocate(layer.out);
    layer.y = allocate(int64_t{layer.out} * batch);
    layer.grad = allocate(int64_t{layer.out} * batch);
    const float scale = 1.0f / static_cast<float>(layer.in);
    fill_uniform(layer.w, weights, scale, static_cast<unsigned>(2 * i + 2), main_);
    fill_uniform(layer.b, layer.out, scale, static_cast<unsigned>(2 * i + 3), main_);
    layers_.push_back(layer);
  }
  check(cudaGetLastError(), "initialization kernels");
  check(cudaStreamSynchronize(main_), "initialization");
}

Network::~Network() {
  for (float* buffer : buffers_) cudaFree(buffer);
  cudaEventDestroy(grad_ready_);
  cudaEventDestroy(side_done_);
  cublasDestroy(main_blas_);
  cublasDestroy(side_blas_);
}

float* Network::allocate(int64_t floats) {
  void* memory = nullptr;
  check(cudaMalloc(&memory, static_cast<size_t>(floats) * sizeof(float)), "cudaMalloc");
  buffers_.push_back(static_cast<float*>(memory));
  return buffers_.back();
}

int64_t Network::weight_bytes(int layer) const {
  return int64_t{layers_[layer].in} * layers_[layer].out * int64_t{sizeof(float)};
}

int64_t Network::bias_bytes(int layer) const {
  return int64_t{layers_[layer].out} * int64_t{sizeof(float)};
}

const float* Network::input_of(int layer) const {
  return layer == 0 ? input_ : layers_[layer - 1].y;
}

void Network::forward(int index) {
  Layer& layer = layers_[index];
  const float one = 1.0f;
  const float zero = 0.0f;
  {
    const NvtxRange range("sgemm");  // y = W x
    check(cublasSgemm(main_blas_, CUBLAS_OP_N, CUBLAS_OP_N, layer.out, batch_, layer.in, &one,
                      layer.w, layer.out, input_of(index), layer.in, &zero, layer.y, layer.out),
          "cublasSgemm forward");
  }
  const NvtxRange range("bias_relu");
  bias_relu_forward(layer.y, layer.b, layer.out, batch_, main_);
  check(cudaGetLastError(), "bias_relu_forward");
}

void Network::loss() {
  Layer& last = layers_.back();
  loss_gradient(last.grad, last.y, last.out, batch_, main_);
  check(cudaGetLastError(), "loss_gradient");
}

void Network::backward(int index) {
  Layer& layer = layers_[index];
  const float one = 1.0f;
  const float zero = 0.0f;
  {
    const NvtxRange range("relu_backward");
    relu_backward(layer.grad, layer.y, layer.out, batch_, main_);
    bias_gradient(layer.b_grad, layer.grad, layer.out, batch_, main_);
    check(cudaGetLastError(), "relu_backward / bias_gradient");
  }
  check(cudaEventRecord(grad_ready_, main_), "cudaEventRecord");
  check(cudaStreamWaitEvent(side_, grad_ready_, 0), "cudaStreamWaitEvent");
  {
    const NvtxRange range("sgemm_weight_grad");  // dW = g x^T, on the side stream
    check(cublasSgemm(side_blas_, CUBLAS_OP_N, CUBLAS_OP_T, layer.out, layer.in, batch_, &one,
                      layer.grad, layer.out, input_of(index), layer.in, &zero, layer.w_grad,
                      layer.out),
          "cublasSgemm weight gradient");
  }
  if (index > 0) {
    const NvtxRange range("sgemm_input_grad");  // dx = W^T g, concurrently on the main stream
    check(cublasSgemm(main_blas_, CUBLAS_OP_T, CUBLAS_OP_N, layer.in, batch_, layer.out, &one,
                      layer.w, layer.out, layer.grad, layer.out, &zero, layers_[index - 1].grad,
                      layer.in),
          "cublasSgemm input gradient");
  }
  check(cudaEventRecord(side_done_, side_), "cudaEventRecord");
  check(cudaStreamWaitEvent(main_, side_done_, 0), "cudaStreamWaitEvent");
}

void Network::sgd_step(float learning_rate) {
  for (Layer& layer : layers_) {
    scalecast::check::sgd_step(layer.w, layer.w_grad, int64_t{layer.in} * layer.out, learning_rate,
                               main_);
    scalecast::check::sgd_step(layer.b, layer.b_grad, layer.out, learning_rate, main_);
  }
  check(cudaGetLastError(), "sgd_step");
}

}  // namespace scalecast::check
