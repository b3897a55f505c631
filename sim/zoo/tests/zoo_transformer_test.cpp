// Tests of the zoo's decoders built by shape (gpt, llama): the generic models reproduce the
// pinned ones, grouped-query attention and tied heads change exactly the tensors they should.
#include <gtest/gtest.h>

#include <algorithm>

#include <cstdint>
#include <stdexcept>
#include <string>

#include "sim/io/input_error.h"
#include "sim/zoo/zoo.h"

namespace scalecast::zoo {
namespace {

ModelOptions by_shape(TransformerShape shape, int seq_len = 128) {
  ModelOptions options;
  options.shape = shape;
  options.seq_len = seq_len;
  return options;
}

double forward_flops(const Workload& workload) {
  double total = 0;
  for (const Layer& layer : workload.layers) total += layer.forward_flops;
  return total;
}

bool has_grad(const Workload& workload, const std::string& name) {
  for (const Layer& layer : workload.layers)
    for (const GradTensor& grad : layer.grads)
      if (grad.name == name) return true;
  return false;
}

// GPT-2's position table has n_positions = 1024 rows; the generic gpt's has seq_len rows.
TEST(ZooTransformers, GenericGptWithGpt2ShapeIsGpt2) {
  const Workload gpt = build_model("gpt", by_shape({12, 768, 12, 0, 0, {}, {}, {}, 0}, 1024));
  const Workload gpt2 = build_model("gpt2", by_shape({}, 1024));
  EXPECT_EQ(gpt.parameters(), 124'439'808);
  EXPECT_EQ(gpt.parameters(), gpt2.parameters());
  EXPECT_EQ(gpt.grad_tensor_count(), gpt2.grad_tensor_count());
  EXPECT_DOUBLE_EQ(forward_flops(gpt), forward_flops(gpt2));
  // At seq_len 128 the generic model's position table shrinks by (1024 - 128) x 768.
  EXPECT_EQ(gpt2.parameters() - build_model("gpt", by_shape({12, 768, 12, 0, 0, {}, {}, {}, 0})).parameters(),
            (1024 - 128) * 768);
}

TEST(ZooTransformers, GenericLlamaWithLlama2ShapeIsLlama2) {
  const Workload llama = build_model("llama", by_shape({32, 4096, 32, 0, 11008, {}, {}, {}, 0}));
  EXPECT_EQ(llama.parameters(), 6'738'415'616);
  EXPECT_EQ(llama.parameters(), build_model("llama2-7b", ModelOptions{}).parameters());
}

// LLaMA-2-70B (meta-llama/Llama-2-70b-hf): 80 x 8192, 64 query heads sharing 8 K/V heads,
// SwiGLU 28672: 68,976,648,192 parameters.
TEST(ZooTransformers, GroupedQueryAttentionShrinksKeyAndValueProjections) {
  const Workload gqa = build_model("llama", by_shape({80, 8192, 64, 8, 28672, {}, {}, {}, 0}));
  EXPECT_EQ(gqa.parameters(), 68'976'648'192);
  const Workload mha = build_model("llama", by_shape({80, 8192, 64, 64, 28672, {}, {}, {}, 0}));
  EXPECT_EQ(mha.parameters() - gqa.parameters(), int64_t{80} * 2 * 8192 * (8192 - 1024));
}

TEST(ZooTransformers, TiedHeadHasNoTensorOfItsOwn) {
  const Workload untied = build_model("llama", by_shape({2, 256, 4, 0, 688, false, {}, {}, 0}));
  const Workload tied = build_model("llama", by_shape({2, 256, 4, 0, 688, true, {}, {}, 0}));
  EXPECT_EQ(untied.parameters() - tied.parameters(), 32000 * 256);
  EXPECT_TRUE(has_grad(untied, "lm_head.weight"));
  EXPECT_FALSE(has_grad(tied, "lm_head.weight"));
  EXPECT_DOUBLE_EQ(forward_flops(untied), forward_flops(tied));
  EXPECT_TRUE(has_grad(build_model("gpt", by_shape({2, 256, 4, 0, 0, false, {}, {}, 0})), "lm_head.weight"));
  EXPECT_FALSE(has_grad(build_model("gpt2", ModelOptions{}), "lm_head.weight"));
}

// MPT by shape: no dropout layers (MPTConfig's pdrops default to 0), the same parameters.
TEST(ZooTransformers, GptWithoutDropoutDropsOnlyTheDropoutLayers) {
  const Workload with = build_model("gpt", by_shape({2, 256, 4, 0, 0, {}, {}, {}, 0}));
  const Workload without = build_model("gpt", by_shape({2, 256, 4, 0, 0, {}, false, {}, 0}));
  const auto dropouts = [](const Workload& w) {
    return std::count_if(w.layers.begin(), w.layers.end(), [](const Layer& l) { return l.kind == "dropout"; });
  };
  EXPECT_EQ(dropouts(with), 1 + 2 * 3);  // the embeddings', and attention's, its output's and the MLP's a block
  EXPECT_EQ(dropouts(without), 0);
  EXPECT_EQ(with.layers.size() - without.layers.size(), 7u);
  EXPECT_EQ(with.parameters(), without.parameters());
}

TEST(ZooTransformers, HuggingFaceParameterNames) {
  const Workload gpt2 = build_model("gpt2", ModelOptions{});
  EXPECT_EQ(gpt2.layers.front().grads.at(0).name, "transformer.wte.weight");
  EXPECT_TRUE(has_grad(gpt2, "transformer.h.11.mlp.c_proj.bias"));
  EXPECT_TRUE(has_grad(gpt2, "transformer.ln_f.weight"));
  const Workload llama = build_model("llama2-7b", ModelOptions{});
  EXPECT_EQ(llama.layers.front().grads.at(0).name, "model.embed_tokens.weight");
  EXPECT_TRUE(has_grad(llama, "model.layers.31.self_attn.k_proj.weight"));
  EXPECT_TRUE(has_grad(llama, "model.layers.0.post_attention_layernorm.weight"));
  EXPECT_FALSE(has_grad(llama, "model.layers.0.self_attn.q_proj.bias"));
  // The head's weight; the loss after it has none.
  EXPECT_EQ(llama.layers.back().kind, "cross_entropy");
  EXPECT_EQ(llama.layers[llama.layers.size() - 2].grads.at(0).name, "lm_head.weight");
}

// GPT-2 at seq s, hidden h, vocab V, 12 layers. Matmul FLOPs: blocks 2 s 12 h^2 per layer,
// attention 2 (2 s^2 h) per layer, the tied head 2 s h V. Norms, GELU, softmax, dropout and
// adds add about 1%.
TEST(ZooTransformers, Gpt2ForwardFlops) {
  const double h = 768, s = 1024, vocab = 50257;
  const double matmuls = 12 * (2 * s * 12 * h * h + 2 * (2 * s * s * h)) + 2 * s * h * vocab;
  const double flops = forward_flops(build_model("gpt2", by_shape({}, 1024)));
  EXPECT_GT(flops, matmuls);
  EXPECT_LT(flops, 1.02 * matmuls);
}

// Per token, a decoder's matmuls are 2 x (parameters outside the embeddings) FLOPs; LLaMA-2-7B
// adds attention over the sequence: 2 (2 s h) per layer and token.
TEST(ZooTransformers, Llama2ForwardFlopsPerToken) {
  const double s = 128, h = 4096;
  const double weights = 6'738'415'616.0 - 32000.0 * 4096;  // all but the input embedding
  const double matmuls = s * (2 * weights + 32 * 2 * (2 * s * h));
  const double flops = forward_flops(build_model("llama2-7b", ModelOptions{}));
  EXPECT_GT(flops, matmuls);
  EXPECT_LT(flops, 1.01 * matmuls);
}

TEST(ZooTransformers, BadShapesThrow) {
  EXPECT_THROW(build_model("gpt", ModelOptions{}), InputError);
  EXPECT_THROW(build_model("llama", by_shape({2, 256, 4, 0, 0, {}, {}, {}, 0})), InputError);
  EXPECT_THROW(build_model("gpt", by_shape({2, 250, 4, 0, 0, {}, {}, {}, 0})), InputError);
  EXPECT_THROW(build_model("llama", by_shape({2, 256, 4, 3, 688, {}, {}, {}, 0})), InputError);
  EXPECT_THROW(build_model("gpt2", by_shape({}, 1025)), InputError);
  EXPECT_NO_THROW(build_model("llama2-7b", by_shape({}, 4096)));
}

// The LLM sizes people train, pinned to the parameter counts their released checkpoints report
// (Hugging Face model cards and safetensors indexes) or, for GPT-3, within 3% of the paper's.
TEST(ZooTransformers, LlmSizesHaveTheirPublishedParameterCounts) {
  EXPECT_EQ(build_model("llama2-7b", ModelOptions{}).parameters(), 6738415616);
  EXPECT_EQ(build_model("llama2-13b", ModelOptions{}).parameters(), 13015864320);
  EXPECT_EQ(build_model("llama2-70b", ModelOptions{}).parameters(), 68976648192);
  EXPECT_EQ(build_model("llama3-8b", ModelOptions{}).parameters(), 8030261248);
  EXPECT_EQ(build_model("llama3-70b", ModelOptions{}).parameters(), 70553706496);
  EXPECT_EQ(build_model("mistral-7b", ModelOptions{}).parameters(), 7241732096);
  const std::pair<const char*, double> gpt3[] = {{"gpt3-125m", 125e6}, {"gpt3-350m", 350e6}, {"gpt3-760m", 760e6},
                                                 {"gpt3-2.7b", 2.7e9},  {"gpt3-6.7b", 6.7e9},  {"gpt3-175b", 175e9}};
  for (const auto& [name, nominal] : gpt3) {
    ModelOptions o;
    o.seq_len = 2048;
    EXPECT_NEAR(static_cast<double>(build_model(name, o).parameters()) / nominal, 1.0, 0.03) << name;
  }
}

}  // namespace
}  // namespace scalecast::zoo
