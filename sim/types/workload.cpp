// Totals over a workload's layers: parameters, gradient tensors and bytes, and per-iteration
// times (sums of what the compute model or a profile filled in).
#include "sim/types/workload.h"

namespace scalecast {

int64_t Layer::parameters() const {
  int64_t total = 0;
  for (const GradTensor& grad : grads) total += grad.elements;
  return total;
}

int64_t Layer::grad_bytes() const {
  int64_t total = 0;
  for (const GradTensor& grad : grads) total += grad.bytes;
  return total;
}

int64_t Workload::parameters() const {
  int64_t total = 0;
  for (const Layer& layer : layers) total += layer.parameters();
  return total;
}

int64_t Workload::grad_tensor_count() const {
  int64_t total = 0;
  for (const Layer& layer : layers) total += static_cast<int64_t>(layer.grads.size());
  return total;
}

int64_t Workload::grad_bytes() const {
  int64_t total = 0;
  for (const Layer& layer : layers) total += layer.grad_bytes();
  return total;
}

double Workload::forward_s() const {
  double total = 0;
  for (const Layer& layer : layers) total += layer.forward_s;
  return total;
}

double Workload::backward_s() const {
  double total = 0;
  for (const Layer& layer : layers) total += layer.backward_s;
  return total;
}

double Workload::compute_s() const {
  return accumulation_steps * (forward_s() + backward_s()) + optimizer_s;
}

}  // namespace scalecast
