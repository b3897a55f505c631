// Layer-building helpers for the zoo: each appends one layer in forward order, computing its
// output shape, forward FLOPs and activation traffic for one sample, and its parameter tensors.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>

#include "sim/types/workload.h"

namespace scalecast::zoo {

// FLOP conventions (one multiply-add = 2 FLOPs; elementwise ops about 1 FLOP per element each).
inline constexpr double kNormFlopsPerElement = 7;     // mean 1, variance 2, normalize 2, affine 2
inline constexpr double kSoftmaxFlopsPerElement = 5;  // max, subtract, exp, sum, divide
inline constexpr double kGeluFlopsPerElement = 8;     // x * 0.5 * (1 + erf(x / sqrt 2)), erf ~4
inline constexpr double kTanhFlopsPerElement = 5;
inline constexpr double kRmsNormFlopsPerElement = 4;  // square, mean, scale by 1/rms, weight
inline constexpr double kSiluFlopsPerElement = 4;     // x / (1 + exp(-x)): exp, add, divide
inline constexpr double kRotaryFlopsPerElement = 3;   // x cos + rotate_half(x) sin
// Attention scores: scale by 1/sqrt(head size) and add the mask before the softmax.
inline constexpr double kScoreFlopsPerElement = 2 + kSoftmaxFlopsPerElement;
inline constexpr double kActivationBytes = 4;         // activations are counted in fp32

// The activations a layer reads for one sample: its forward traffic (input plus output, at
// kActivationBytes each) less its output.
inline double input_elements(const Layer& layer) {
  return std::max(0.0, layer.forward_memory_bytes / kActivationBytes - static_cast<double>(layer.output_elements));
}

// The transformer block a layer belongs to ("bert.encoder.layer.3.", "transformer.h.3.",
// "model.layers.3."), empty outside one: what checkpointing wraps. block_index: its number (3),
// -1 outside one.
std::string block_of(const std::string& layer_name);
int block_index(const std::string& layer_name);

// How parameter tensors are named: PyTorch ("weight", "bias"; norms: weight = gamma first) or
// JAX stax (Conv/Dense: "W", "b"; BatchNorm: "beta", "gamma", in stax's own order).
enum class ParamStyle { kTorch, kStax };

// Appends layers to a workload. Layer kinds: conv, linear, batchnorm, layernorm, rmsnorm,
// embedding, relu, maxpool, avgpool, add, mul, attention, softmax, gelu, silu, rotary, tanh,
// dropout, cross_entropy.
class NetBuilder {
 public:
  NetBuilder(int bytes_per_element, ParamStyle style);

  // A layer reading `in_elements` and writing `out_elements` activations of one sample.
  Layer& add(const std::string& name, const std::string& kind, double flops, int64_t in_elements,
             int64_t out_elements);
  // Appends the gradient tensor of a parameter `name` with `elements` values to `layer`.
  void param(Layer& layer, const std::string& name, int64_t elements) const;
  // Weight and bias tensors of a conv or linear layer, named in this builder's style.
  void weight_and_bias(Layer& layer, const std::string& prefix, int64_t weights,
                       int64_t biases) const;
  // Scale (gamma) and shift (beta) tensors of a norm layer, in this builder's style and order.
  void scale_and_shift(Layer& layer, const std::string& prefix, int64_t features) const;

  Workload finish();

 private:
  Workload workload_;
  int bytes_per_element_;
  ParamStyle style_;
};

// Activation of one sample in a CNN.
struct FeatureMap {
  int64_t channels = 0;
  int64_t height = 0;
  int64_t width = 0;
  int64_t elements() const { return channels * height * width; }
};

struct ConvSpec {
  int64_t out_channels = 0;
  int64_t kernel = 1;
  int64_t stride = 1;
  int64_t padding = 0;  // on each side
  int64_t groups = 1;
  bool bias = false;
};

struct PoolSpec {
  int64_t kernel = 1;
  int64_t stride = 1;
  int64_t padding = 0;  // on each side
};

// Throws an InputError if the output would be empty or the groups do not divide.
FeatureMap conv2d(NetBuilder& net, const std::string& name, const FeatureMap& in,
                  const ConvSpec& spec);
FeatureMap batchnorm2d(NetBuilder& net, const std::string& name, const FeatureMap& in);
// kind: "maxpool" or "avgpool".
FeatureMap pool2d(NetBuilder& net, const std::string& name, const std::string& kind,
                  const FeatureMap& in, const PoolSpec& spec);
FeatureMap adaptive_avgpool2d(NetBuilder& net, const std::string& name, const FeatureMap& in,
                              int64_t out_size);

// An elementwise op over `elements` values with `inputs` input tensors (2 for a residual add).
void elementwise(NetBuilder& net, const std::string& name, const std::string& kind,
                 int64_t elements, double flops_per_element, int inputs = 1);
// A fully connected layer applied to `rows` vectors (tokens, or 1 for a classifier).
void linear(NetBuilder& net, const std::string& name, int64_t rows, int64_t in_features,
            int64_t out_features, bool bias = true);
void layernorm(NetBuilder& net, const std::string& name, int64_t rows, int64_t features);
// RMSNorm (LLaMA): a scale (weight) and no shift.
void rmsnorm(NetBuilder& net, const std::string& name, int64_t rows, int64_t features);
// Scaled dot-product attention of `heads` heads over `seq` tokens (`hidden` = heads x head size)
// from projected Q, K, V: scores Q K^T (prefix + "scores"), masked softmax ("softmax"), optional
// dropout of the probabilities ("dropout"), context P V ("context").
void attention(NetBuilder& net, const std::string& prefix, int64_t seq, int64_t hidden,
               int64_t heads, bool dropout);
// A language-model head "lm_head" over `rows` tokens: hidden -> vocab without bias, then its
// cross-entropy loss ("loss"). Tied: the head's weight is the token embedding's, whose gradient
// collects it, so it has no tensor of its own.
void lm_head(NetBuilder& net, int64_t rows, int64_t hidden, int64_t vocab, bool tied);
// A cross-entropy loss over `rows` rows of `classes` logits: log_softmax (max, exp-sum, subtract)
// and the target's pick.
void cross_entropy(NetBuilder& net, const std::string& name, int64_t rows, int64_t classes);
// Throws an InputError (prefixed with `model`) unless heads divides hidden and kv_heads
// divides heads, all positive.
void check_heads(const std::string& model, int64_t hidden, int64_t heads, int64_t kv_heads);

// A table lookup of `rows` indices into a `num_embeddings` x `dim` table.
void embedding(NetBuilder& net, const std::string& name, int64_t rows, int64_t num_embeddings,
               int64_t dim);

}  // namespace scalecast::zoo
