// Builders of the zoo's model families, one source file each; the registry (zoo.cpp) names
// them and fills in Workload::model and Workload::sample_unit.
#pragma once

#include "sim/types/workload.h"
#include "sim/zoo/zoo.h"

namespace scalecast::zoo {

// torchvision ResNet: depth 18 (BasicBlock) or 50 / 101 (Bottleneck).
Workload build_resnet(int depth, const ModelOptions& options);
// torchvision vgg16 (configuration D, no batch norm).
Workload build_vgg16(const ModelOptions& options);
// torchvision mobilenet_v2 (width multiplier 1.0).
Workload build_mobilenet_v2(const ModelOptions& options);

// HuggingFace BertForPreTraining sizes.
struct BertConfig {
  int layers = 12;
  int hidden = 768;
  int heads = 12;
  int intermediate = 3072;
};
inline constexpr BertConfig kBertBase{12, 768, 12, 3072};
inline constexpr BertConfig kBertLarge{24, 1024, 16, 4096};
Workload build_bert(const BertConfig& config, const ModelOptions& options);

// HuggingFace GPT2LMHeadModel layout: learned token and position embeddings, pre-LayerNorm
// blocks (fused QKV projection, GELU MLP), final LayerNorm, LM head.
struct GptConfig {
  int layers = 12;
  int hidden = 768;
  int heads = 12;
  int intermediate = 3072;
  int positions = 1024;         // rows of the position table (0: the sequence length)
  int vocab = 50257;
  bool tied_embeddings = true;  // the LM head reuses the token embedding's weight
  bool dropout = true;          // GPT-2's dropout after the embeddings, attention and each branch
};
inline constexpr GptConfig kGpt2{12, 768, 12, 3072, 1024, 50257, true};
inline constexpr GptConfig kGpt2Medium{24, 1024, 16, 4096, 1024, 50257, true};
// GPT-3's sizes (Brown et al. 2020, Table 2.1: layers, d_model, heads; MLP 4 x d_model, context
// 2048, GPT-2's vocabulary and tied embeddings). XL and 13B are left out: the table's heads x
// d_head does not give its d_model.
inline constexpr GptConfig kGpt3_125m{12, 768, 12, 3072, 2048, 50257, true};
inline constexpr GptConfig kGpt3_350m{24, 1024, 16, 4096, 2048, 50257, true};
inline constexpr GptConfig kGpt3_760m{24, 1536, 16, 6144, 2048, 50257, true};
inline constexpr GptConfig kGpt3_2_7b{32, 2560, 32, 10240, 2048, 50257, true};
inline constexpr GptConfig kGpt3_6_7b{32, 4096, 32, 16384, 2048, 50257, true};
inline constexpr GptConfig kGpt3_175b{96, 12288, 96, 49152, 2048, 50257, true};
// The generic "gpt": layers, hidden and heads from the shape; MLP 4 x hidden, tied embeddings
// and a position table of the sequence length unless the shape says otherwise.
GptConfig gpt_config(const TransformerShape& shape);
Workload build_gpt(const GptConfig& config, const ModelOptions& options);

// HuggingFace LlamaForCausalLM layout: token embedding, RMSNorm blocks with rotary
// grouped-query attention and a SwiGLU MLP, no biases, final RMSNorm, untied LM head.
struct LlamaConfig {
  int layers = 32;
  int hidden = 4096;
  int intermediate = 11008;
  int heads = 32;
  int kv_heads = 32;
  int vocab = 32000;
  bool tied_embeddings = false;
};
// Sizes from each model's config.json on the Hugging Face hub (num_hidden_layers, hidden_size,
// intermediate_size, num_attention_heads, num_key_value_heads, vocab_size).
inline constexpr LlamaConfig kLlama2_7b{32, 4096, 11008, 32, 32, 32000, false};
inline constexpr LlamaConfig kLlama2_13b{40, 5120, 13824, 40, 40, 32000, false};
inline constexpr LlamaConfig kLlama2_70b{80, 8192, 28672, 64, 8, 32000, false};
inline constexpr LlamaConfig kLlama3_8b{32, 4096, 14336, 32, 8, 128256, false};
inline constexpr LlamaConfig kLlama3_70b{80, 8192, 28672, 64, 8, 128256, false};
inline constexpr LlamaConfig kMistral7b{32, 4096, 14336, 32, 8, 32000, false};
// The generic "llama": layers, hidden, intermediate and heads from the shape; K/V heads = heads
// and an untied head unless the shape says otherwise.
LlamaConfig llama_config(const TransformerShape& shape);
Workload build_llama(const LlamaConfig& config, const ModelOptions& options);

// ray-project/distml JAX stax ResNet on MNIST (28x28x1, 10 classes): depth 18, 50 or 101.
Workload build_distml_resnet(int depth, const ModelOptions& options);

}  // namespace scalecast::zoo
