// A training workload: a model as an ordered list of layers with FLOPs, gradient tensors and
// (once a compute model or a profile has filled them) forward and backward times per iteration.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace scalecast {

// One gradient tensor, as the backward pass hands it to the communication layer.
struct GradTensor {
  std::string name;       // parameter name, e.g. "layer1.0.conv1.weight"
  int64_t elements = 0;   // number of parameters
  int64_t bytes = 0;      // elements * bytes per element (fp32: 4)
};

// The matrix product a layer's forward pass runs for one sample: `count` independent products
// of an (m x k) by a (k x n) matrix (a convolution's groups, attention's heads). A batch adds
// rows to m (batch_in_rows: conv, linear) or products to count (attention's batched products).
struct MatmulShape {
  double m = 0;  // 0: the layer is not a matrix product
  double n = 0;
  double k = 0;
  double count = 1;
  bool batch_in_rows = true;
};

// One layer (module) of the forward pass. Layers without parameters (ReLU, pooling, residual
// add, attention matmuls) are layers too: they cost time but have no gradients.
struct Layer {
  std::string name;                 // e.g. "layer1.0.conv1"
  std::string kind;                 // conv, linear, batchnorm, layernorm, embedding, relu, ...
  double forward_flops = 0;         // FLOPs of the forward pass for one sample
  double forward_memory_bytes = 0;  // bytes read + written by the forward pass for one sample
                                    // (activations; weights are counted from grads)
  int64_t output_elements = 0;      // activations the forward pass writes for one sample (what
                                    // autograd keeps for the backward pass; 0 when unknown)
  std::vector<GradTensor> grads;    // in the order the backward pass produces them
  MatmulShape matmul;               // conv, linear and attention products (m == 0: none)
  double forward_s = 0;             // forward time of one iteration (whole batch per GPU)
  double backward_s = 0;            // backward time of one iteration

  int64_t parameters() const;
  int64_t grad_bytes() const;
};

// A model in forward order. The backward pass visits layers in reverse order.
struct Workload {
  std::string model;                // zoo name or profile name
  int batch_per_gpu = 1;            // the micro-batch the layer times are for
  int accumulation_steps = 1;       // micro-batches per optimizer step (one gradient sync)
  std::string sample_unit = "samples";  // "images", "sequences"
  bool causal_attention = false;    // decoders: a fused attention kernel skips masked blocks
  // Bytes a parameter takes as the model holds it in its forward pass: 4 under torch.autocast,
  // whose products take half-width copies of fp32 weights; 0 when it is the gradients' width.
  int parameter_bytes = 0;
  // Bytes/s the GPU's streaming kernels move (its memory bandwidth at the compute model's share):
  // what a schedule's own memory passes are timed at (0: it adds none).
  double streaming_bandwidth = 0;
  std::vector<Layer> layers;
  double optimizer_s = 0;           // optimizer step after the gradients are aggregated

  int64_t parameters() const;
  int64_t grad_tensor_count() const;
  int64_t grad_bytes() const;
  double forward_s() const;
  double backward_s() const;
  double compute_s() const;         // forward + backward of every micro-batch, and the optimizer
  int samples_per_step() const { return batch_per_gpu * accumulation_steps; }
};

}  // namespace scalecast
