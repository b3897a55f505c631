// Layer-building helpers for the zoo: shapes, FLOPs, activation traffic and parameter tensors of
// the usual layer types, following the PyTorch (torch.nn) and JAX stax layer definitions.
#include "sim/zoo/layers.h"

#include <algorithm>
#include <regex>
#include <stdexcept>
#include <utility>

#include "sim/io/input_error.h"

namespace scalecast::zoo {
namespace {

double activation_bytes(int64_t elements) {
  return kActivationBytes * static_cast<double>(elements);
}

int64_t output_extent(int64_t in, int64_t kernel, int64_t stride, int64_t padding,
                      const std::string& name) {
  const int64_t padded = in + 2 * padding;
  if (kernel < 1 || stride < 1 || padded < kernel) {
    throw InputError(name + ": input extent " + std::to_string(in) +
                     " is too small for kernel " + std::to_string(kernel));
  }
  return (padded - kernel) / stride + 1;
}

}  // namespace

NetBuilder::NetBuilder(int bytes_per_element, ParamStyle style)
    : bytes_per_element_(bytes_per_element), style_(style) {
  if (bytes_per_element < 1) throw std::logic_error("bytes_per_element must be positive");
}

Layer& NetBuilder::add(const std::string& name, const std::string& kind, double flops,
                       int64_t in_elements, int64_t out_elements) {
  Layer layer;
  layer.name = name;
  layer.kind = kind;
  layer.forward_flops = flops;
  layer.forward_memory_bytes = activation_bytes(in_elements + out_elements);
  layer.output_elements = out_elements;
  workload_.layers.push_back(std::move(layer));
  return workload_.layers.back();
}

void NetBuilder::param(Layer& layer, const std::string& name, int64_t elements) const {
  layer.grads.push_back(GradTensor{name, elements, elements * bytes_per_element_});
}

void NetBuilder::weight_and_bias(Layer& layer, const std::string& prefix, int64_t weights,
                                 int64_t biases) const {
  const bool torch = style_ == ParamStyle::kTorch;
  param(layer, prefix + (torch ? ".weight" : ".W"), weights);
  if (biases > 0) param(layer, prefix + (torch ? ".bias" : ".b"), biases);
}

void NetBuilder::scale_and_shift(Layer& layer, const std::string& prefix, int64_t features) const {
  if (style_ == ParamStyle::kTorch) {
    param(layer, prefix + ".weight", features);
    param(layer, prefix + ".bias", features);
  } else {
    param(layer, prefix + ".beta", features);
    param(layer, prefix + ".gamma", features);
  }
}

Workload NetBuilder::finish() { return std::move(workload_); }

FeatureMap conv2d(NetBuilder& net, const std::string& name, const FeatureMap& in,
                  const ConvSpec& spec) {
  if (spec.groups < 1 || in.channels % spec.groups != 0 || spec.out_channels % spec.groups != 0) {
    throw InputError(name + ": groups must divide the input and output channels");
  }
  const FeatureMap out{spec.out_channels,
                       output_extent(in.height, spec.kernel, spec.stride, spec.padding, name),
                       output_extent(in.width, spec.kernel, spec.stride, spec.padding, name)};
  const int64_t weights = in.channels / spec.groups * spec.kernel * spec.kernel * spec.out_channels;
  const int64_t spatial = out.height * out.width;
  double flops = 2.0 * static_cast<double>(weights) * static_cast<double>(spatial);
  if (spec.bias) flops += static_cast<double>(out.elements());
  Layer& layer = net.add(name, "conv", flops, in.elements(), out.elements());
  // Implicit GEMM: output pixels by output channels, reducing over the receptive field.
  layer.matmul = {.m = static_cast<double>(spatial),
                  .n = static_cast<double>(spec.out_channels / spec.groups),
                  .k = static_cast<double>(in.channels / spec.groups * spec.kernel * spec.kernel),
                  .count = static_cast<double>(spec.groups)};
  net.weight_and_bias(layer, name, weights, spec.bias ? spec.out_channels : 0);
  return out;
}

FeatureMap batchnorm2d(NetBuilder& net, const std::string& name, const FeatureMap& in) {
  Layer& layer = net.add(name, "batchnorm",
                         kNormFlopsPerElement * static_cast<double>(in.elements()), in.elements(),
                         in.elements());
  net.scale_and_shift(layer, name, in.channels);
  return in;
}

FeatureMap pool2d(NetBuilder& net, const std::string& name, const std::string& kind,
                  const FeatureMap& in, const PoolSpec& spec) {
  const FeatureMap out{in.channels,
                       output_extent(in.height, spec.kernel, spec.stride, spec.padding, name),
                       output_extent(in.width, spec.kernel, spec.stride, spec.padding, name)};
  // One compare or add per window element; windows larger than the input see only the input.
  const int64_t window = std::min(spec.kernel, in.height) * std::min(spec.kernel, in.width);
  net.add(name, kind, static_cast<double>(out.elements() * window), in.elements(),
          out.elements());
  return out;
}

FeatureMap adaptive_avgpool2d(NetBuilder& net, const std::string& name, const FeatureMap& in,
                              int64_t out_size) {
  const FeatureMap out{in.channels, out_size, out_size};
  // Every input element is added once, every output divided once.
  net.add(name, "avgpool", static_cast<double>(in.elements() + out.elements()), in.elements(),
          out.elements());
  return out;
}

void elementwise(NetBuilder& net, const std::string& name, const std::string& kind,
                 int64_t elements, double flops_per_element, int inputs) {
  net.add(name, kind, flops_per_element * static_cast<double>(elements), inputs * elements,
          elements);
}

void linear(NetBuilder& net, const std::string& name, int64_t rows, int64_t in_features,
            int64_t out_features, bool bias) {
  const int64_t weights = in_features * out_features;
  double flops = 2.0 * static_cast<double>(rows) * static_cast<double>(weights);
  if (bias) flops += static_cast<double>(rows * out_features);
  Layer& layer = net.add(name, "linear", flops, rows * in_features, rows * out_features);
  layer.matmul = {.m = static_cast<double>(rows), .n = static_cast<double>(out_features),
                  .k = static_cast<double>(in_features)};
  net.weight_and_bias(layer, name, weights, bias ? out_features : 0);
}

void layernorm(NetBuilder& net, const std::string& name, int64_t rows, int64_t features) {
  const int64_t elements = rows * features;
  Layer& layer = net.add(name, "layernorm", kNormFlopsPerElement * static_cast<double>(elements),
                         elements, elements);
  net.scale_and_shift(layer, name, features);
}

void rmsnorm(NetBuilder& net, const std::string& name, int64_t rows, int64_t features) {
  const int64_t elements = rows * features;
  Layer& layer = net.add(name, "rmsnorm", kRmsNormFlopsPerElement * static_cast<double>(elements),
                         elements, elements);
  net.param(layer, name + ".weight", features);
}

void attention(NetBuilder& net, const std::string& prefix, int64_t seq, int64_t hidden,
               int64_t heads, bool dropout) {
  const int64_t activations = seq * hidden;
  const int64_t scores = heads * seq * seq;
  const double matmul_flops =
      2.0 * static_cast<double>(seq) * static_cast<double>(seq) * static_cast<double>(hidden);
  const double rows = static_cast<double>(seq);
  const double head_size = static_cast<double>(hidden / heads);
  const double products = static_cast<double>(heads);
  net.add(prefix + "scores", "attention", matmul_flops, 2 * activations, scores).matmul =  // Q K^T
      {.m = rows, .n = rows, .k = head_size, .count = products, .batch_in_rows = false};
  elementwise(net, prefix + "softmax", "softmax", scores, kScoreFlopsPerElement);
  if (dropout) elementwise(net, prefix + "dropout", "dropout", scores, 1);
  net.add(prefix + "context", "attention", matmul_flops, scores + activations, activations).matmul =  // P V
      {.m = rows, .n = head_size, .k = rows, .count = products, .batch_in_rows = false};
}

void lm_head(NetBuilder& net, int64_t rows, int64_t hidden, int64_t vocab, bool tied) {
  if (!tied) {
    linear(net, "lm_head", rows, hidden, vocab, false);
  } else {
    net.add("lm_head", "linear",
            2.0 * static_cast<double>(rows * hidden) * static_cast<double>(vocab), rows * hidden,
            rows * vocab)
        .matmul = {.m = static_cast<double>(rows), .n = static_cast<double>(vocab),
                   .k = static_cast<double>(hidden)};
  }
  cross_entropy(net, "loss", rows, vocab);
}

void cross_entropy(NetBuilder& net, const std::string& name, int64_t rows, int64_t classes) {
  net.add(name, "cross_entropy", kSoftmaxFlopsPerElement * static_cast<double>(rows * classes), rows * classes,
          rows * classes);
}

void check_heads(const std::string& model, int64_t hidden, int64_t heads, int64_t kv_heads) {
  if (hidden < 1 || heads < 1 || kv_heads < 1) {
    throw InputError(model + ": hidden, heads and kv_heads must be positive");
  }
  if (hidden % heads != 0) {
    throw InputError(model + ": hidden (" + std::to_string(hidden) +
                     ") must be a multiple of heads (" + std::to_string(heads) + ")");
  }
  if (heads % kv_heads != 0) {
    throw InputError(model + ": heads (" + std::to_string(heads) +
                     ") must be a multiple of kv_heads (" + std::to_string(kv_heads) +
                     ")");
  }
}

void embedding(NetBuilder& net, const std::string& name, int64_t rows, int64_t num_embeddings,
               int64_t dim) {
  // A gather: no arithmetic; reads the indices, writes one row per index.
  Layer& layer = net.add(name, "embedding", 0, rows, rows * dim);
  net.param(layer, name + ".weight", num_embeddings * dim);
}

std::string block_of(const std::string& layer_name) {
  static const std::regex block(R"(^(.*(?:^|\.)(?:layer|h|layers)\.([0-9]+)\.))");
  std::smatch m;
  if (std::regex_search(layer_name, m, block)) return m[1].str();
  return {};
}

int block_index(const std::string& layer_name) {
  static const std::regex block(R"((?:^|\.)(?:layer|h|layers)\.([0-9]+)\.)");
  std::smatch m;
  if (std::regex_search(layer_name, m, block)) return std::stoi(m[1].str());
  return -1;
}

}  // namespace scalecast::zoo
