// Tests of the model zoo: exact parameter and gradient-tensor counts against the reference
// definitions, FLOP totals derived independently, options, naming and the registry's errors.
#include <gtest/gtest.h>

#include <cstdint>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "sim/io/input_error.h"
#include "sim/zoo/layers.h"
#include "sim/zoo/zoo.h"

namespace scalecast::zoo {
namespace {

struct Expected {
  std::string name;
  int64_t parameters;
  int64_t grad_tensors;
  std::string sample_unit;
};

// torchvision / HuggingFace (BERT vocab 30528) / ray-project/distml stax (MNIST) counts. GPT-2:
// sum(p.numel() for p in GPT2LMHeadModel.parameters()) (lm_head tied to wte, so not counted);
// LLaMA-2-7B: the same over LlamaForCausalLM (meta-llama/Llama-2-7b-hf, untied lm_head).
const std::vector<Expected> kExpected = {
    {"bert-base", 110'111'042, 206, "sequences"},
    {"bert-large", 336'232'258, 398, "sequences"},
    {"distml-resnet101-mnist", 42'567'050, 418, "images"},
    {"distml-resnet18-mnist", 8'885'822, 102, "images"},  // 179,200 over the README: see zoo_distml_test
    {"distml-resnet50-mnist", 23'548'810, 214, "images"},
    {"gpt2", 124'439'808, 148, "sequences"},
    {"gpt2-medium", 354'823'168, 292, "sequences"},
    {"gpt3-125m", 125'226'240, 148, "sequences"},
    {"gpt3-175b", 174'604'259'328, 1156, "sequences"},
    {"gpt3-2.7b", 2'651'553'280, 388, "sequences"},
    {"gpt3-350m", 355'871'744, 292, "sequences"},
    {"gpt3-6.7b", 6'658'404'352, 388, "sequences"},
    {"gpt3-760m", 760'300'032, 292, "sequences"},
    {"llama2-13b", 13'015'864'320, 363, "sequences"},
    {"llama2-70b", 68'976'648'192, 723, "sequences"},
    {"llama2-7b", 6'738'415'616, 291, "sequences"},
    {"llama3-70b", 70'553'706'496, 723, "sequences"},
    {"llama3-8b", 8'030'261'248, 291, "sequences"},
    {"mistral-7b", 7'241'732'096, 291, "sequences"},
    {"mobilenet_v2", 3'504'872, 158, "images"},
    {"resnet101", 44'549'160, 314, "images"},
    {"resnet18", 11'689'512, 62, "images"},
    {"resnet50", 25'557'032, 161, "images"},
    {"vgg16", 138'357'544, 32, "images"},
};

double forward_flops(const Workload& workload) {
  double total = 0;
  for (const Layer& layer : workload.layers) total += layer.forward_flops;
  return total;
}

ModelOptions bert_options(int seq_len, int vocab_size) {
  ModelOptions options;
  options.seq_len = seq_len;
  options.vocab_size = vocab_size;
  return options;
}

// Models built by shape (zoo_transformer_test.cpp): no count of their own.
const std::vector<std::string> kByShape = {"gpt", "llama"};

TEST(Zoo, ListsEveryModelSorted) {
  std::vector<std::string> names;
  for (const ModelInfo& info : list_models()) {
    names.push_back(info.name);
    EXPECT_FALSE(info.description.empty()) << info.name;
    EXPECT_TRUE(has_model(info.name));
  }
  std::set<std::string> expected(kByShape.begin(), kByShape.end());
  for (const Expected& e : kExpected) expected.insert(e.name);
  EXPECT_EQ(names, std::vector<std::string>(expected.begin(), expected.end()));
}

TEST(Zoo, PinsParameterAndGradientCounts) {
  for (const Expected& e : kExpected) {
    const Workload w = build_model(e.name, ModelOptions{});
    EXPECT_EQ(w.model, e.name);
    EXPECT_EQ(w.parameters(), e.parameters) << e.name;
    EXPECT_EQ(w.grad_tensor_count(), e.grad_tensors) << e.name;
    EXPECT_EQ(w.sample_unit, e.sample_unit) << e.name;
    EXPECT_EQ(w.batch_per_gpu, 1) << e.name;
    EXPECT_EQ(w.compute_s(), 0.0) << e.name;
  }
}

TEST(Zoo, GradBytesFollowTheElementSize) {
  for (const Expected& e : kExpected) {
    EXPECT_EQ(build_model(e.name, ModelOptions{}).grad_bytes(), 4 * e.parameters) << e.name;
    ModelOptions fp16;
    fp16.bytes_per_element = 2;
    EXPECT_EQ(build_model(e.name, fp16).grad_bytes(), 2 * e.parameters) << e.name;
  }
}

TEST(Zoo, GradientNamesAreUniqueAndLayersAreWellFormed) {
  for (const Expected& e : kExpected) {
    const Workload w = build_model(e.name, ModelOptions{});
    std::set<std::string> names;
    for (const Layer& layer : w.layers) {
      EXPECT_FALSE(layer.name.empty()) << e.name;
      EXPECT_FALSE(layer.kind.empty()) << layer.name;
      EXPECT_GE(layer.forward_flops, 0.0) << layer.name;
      EXPECT_GT(layer.forward_memory_bytes, 0.0) << layer.name;
      for (const GradTensor& grad : layer.grads) {
        EXPECT_GT(grad.elements, 0) << grad.name;
        EXPECT_TRUE(names.insert(grad.name).second) << "duplicate gradient " << grad.name;
      }
    }
  }
}

TEST(Zoo, ParameterFreeLayersAreModeled) {
  const Workload w = build_model("resnet50", ModelOptions{});
  std::set<std::string> free_kinds;
  for (const Layer& layer : w.layers) {
    if (layer.grads.empty()) free_kinds.insert(layer.kind);
  }
  EXPECT_EQ(free_kinds, (std::set<std::string>{"add", "avgpool", "maxpool", "relu"}));
}

TEST(Zoo, LayersAreInForwardOrderWithFrameworkNames) {
  const Workload resnet = build_model("resnet50", ModelOptions{});
  EXPECT_EQ(resnet.layers.front().name, "conv1");
  EXPECT_EQ(resnet.layers.front().grads.at(0).name, "conv1.weight");
  EXPECT_EQ(resnet.layers.back().name, "fc");
  EXPECT_EQ(resnet.layers[1].grads.at(0).name, "bn1.weight");

  const Workload bert = build_model("bert-base", ModelOptions{});
  EXPECT_EQ(bert.layers.front().grads.at(0).name, "bert.embeddings.word_embeddings.weight");
  EXPECT_EQ(bert.layers.back().name, "cls.seq_relationship");
  bool found_bias = false;
  for (const Layer& layer : bert.layers) {
    for (const GradTensor& grad : layer.grads) {
      EXPECT_EQ(grad.name.find("decoder.weight"), std::string::npos);  // tied, not separate
      found_bias = found_bias || grad.name == "cls.predictions.bias";
    }
  }
  EXPECT_TRUE(found_bias);

  const Workload stax = build_model("distml-resnet50-mnist", ModelOptions{});
  EXPECT_EQ(stax.layers.front().grads.at(0).name, "stem.conv.W");
  EXPECT_EQ(stax.layers[1].grads.at(0).name, "stem.bn.beta");
}

// torchvision reports ResNet-50 at 4.09 GMACs per 224x224 image: about 8.2 GFLOPs; the zoo adds
// BatchNorm, ReLU, pooling and residual adds (~1%) on top of the conv and fc FLOPs.
TEST(Zoo, ResNet50ForwardFlopsPerImage) {
  const double flops = forward_flops(build_model("resnet50", ModelOptions{}));
  EXPECT_NEAR(flops, 8.2e9, 0.03 * 8.2e9);
}

// BERT-Base, seq 128, vocab 30528, hidden h = 768, intermediate 3072, 12 layers. Matmul FLOPs:
//   encoder weights per layer 4h^2 + 2*h*3072 = 7,077,888, on every token: 2*128*7,077,888*12
//   attention scores and context: 2 * (2*128*128*768) per layer, *12
//   MLM transform 2*128*h^2; MLM decoder (tied to word embeddings) 2*128*h*30528
//   pooler 2*h^2 and NSP 2*h*2 on the first token only.
// Total 28,501,478,400. That is "2 * params * seq" minus the position/token-type embeddings and
// the pooler/NSP on 127 tokens, with the word-embedding matrix counted once (as the decoder),
// plus attention. Biases, LayerNorm, GELU, softmax, dropout and adds add well under 1%.
TEST(Zoo, BertBaseForwardFlopsAtSeq128) {
  const double h = 768, seq = 128, vocab = 30528;
  const double encoder = 12 * (2 * seq * (4 * h * h + 2 * h * 3072) + 2 * (2 * seq * seq * h));
  const double heads = 2 * seq * h * h + 2 * seq * h * vocab + 2 * h * h + 2 * h * 2;
  const double matmuls = encoder + heads;
  EXPECT_DOUBLE_EQ(matmuls, 28'501'478'400.0);
  const double flops = forward_flops(build_model("bert-base", bert_options(128, 30528)));
  EXPECT_GT(flops, matmuls);
  EXPECT_LT(flops, 1.01 * matmuls);
}

TEST(Zoo, BertVocabChangesEmbeddingAndOutputBias) {
  const Workload padded = build_model("bert-base", bert_options(128, 30528));
  const Workload original = build_model("bert-base", bert_options(128, 30522));
  // Six fewer rows of the word embeddings (768 each) and six fewer output biases.
  EXPECT_EQ(padded.parameters() - original.parameters(), 6 * (768 + 1));
  EXPECT_EQ(padded.grad_tensor_count(), original.grad_tensor_count());
}

TEST(Zoo, BertSeqLenChangesFlopsNotParameters) {
  const Workload short_seq = build_model("bert-base", bert_options(128, 30528));
  const Workload long_seq = build_model("bert-base", bert_options(256, 30528));
  EXPECT_EQ(short_seq.parameters(), long_seq.parameters());
  // Everything but the first-token pooler/NSP is linear in seq except the attention, which is
  // quadratic: per layer the two matmuls (2 * 2*h per seq^2) and the softmax (with scale and
  // mask) plus dropout over heads * seq^2 scores.
  const double per_layer = 4 * 768 + 12 * (2 + kSoftmaxFlopsPerElement + 1);
  const double quadratic = 12 * per_layer * (256.0 * 256.0 - 2 * 128.0 * 128.0);
  const double first_token = 2 * 768 * 768 + 768 * kTanhFlopsPerElement + 768 + 2 * 768 * 2 + 2;
  const double f128 = forward_flops(short_seq), f256 = forward_flops(long_seq);
  EXPECT_NEAR(f256 - 2 * f128, quadratic - first_token, 1e-9 * f256);
  EXPECT_THROW(build_model("bert-base", bert_options(513, 30528)), InputError);
  EXPECT_THROW(build_model("bert-base", bert_options(0, 30528)), InputError);
}

const Layer& layer_named(const Workload& w, const std::string& name) {
  for (const Layer& layer : w.layers)
    if (layer.name == name) return layer;
  throw std::out_of_range("no layer " + name);
}

bool has_layer(const Workload& w, const std::string& name) {
  for (const Layer& layer : w.layers)
    if (layer.name == name) return true;
  return false;
}

// The masked-LM decoder is a product (tokens x hidden by hidden x vocab, the word embeddings'
// weight), followed by its loss over the logits; gathered to the masked positions, the head's
// layers run on those rows only and the encoder is unchanged.
TEST(Zoo, BertMaskedLmHeadRunsOnItsPositions) {
  ModelOptions all = bert_options(128, 30528);
  const Workload every = build_model("bert-large", all);
  const Layer& decoder = layer_named(every, "cls.predictions.decoder");
  EXPECT_DOUBLE_EQ(decoder.matmul.m, 128);
  EXPECT_DOUBLE_EQ(decoder.matmul.n, 30528);
  EXPECT_DOUBLE_EQ(decoder.matmul.k, 1024);
  EXPECT_EQ(layer_named(every, "loss").kind, "cross_entropy");
  EXPECT_EQ(layer_named(every, "loss").output_elements, 128 * 30528);

  ModelOptions masked = all;
  masked.shape.mlm_positions = 20;
  const Workload gathered = build_model("bert-large", masked);
  EXPECT_EQ(gathered.parameters(), every.parameters());
  EXPECT_DOUBLE_EQ(layer_named(gathered, "cls.predictions.decoder").matmul.m, 20);
  EXPECT_DOUBLE_EQ(layer_named(gathered, "cls.predictions.transform.dense").matmul.m, 20);
  EXPECT_EQ(layer_named(gathered, "loss").output_elements, 20 * 30528);
  EXPECT_DOUBLE_EQ(layer_named(gathered, "bert.encoder.layer.23.output.dense").forward_flops,
                   layer_named(every, "bert.encoder.layer.23.output.dense").forward_flops);
  const double head_flops = layer_named(every, "cls.predictions.decoder").forward_flops;
  EXPECT_DOUBLE_EQ(layer_named(gathered, "cls.predictions.decoder").forward_flops, head_flops * 20 / 128);

  masked.shape.mlm_positions = 129;
  EXPECT_THROW(build_model("bert-large", masked), InputError);
}

// BertForQuestionAnswering: the encoder, then a start and an end logit per token; no pooler,
// masked-LM or next-sentence head.
TEST(Zoo, BertQuestionAnsweringHead) {
  ModelOptions options = bert_options(384, 30528);
  const Workload pretraining = build_model("bert-large", options);
  options.shape.head = "question-answering";
  const Workload squad = build_model("bert-large", options);
  EXPECT_FALSE(has_layer(squad, "cls.predictions.decoder"));
  EXPECT_FALSE(has_layer(squad, "bert.pooler.dense"));
  const Layer& qa = layer_named(squad, "qa_outputs");
  EXPECT_DOUBLE_EQ(qa.matmul.m, 384);
  EXPECT_DOUBLE_EQ(qa.matmul.n, 2);
  EXPECT_EQ(squad.layers.back().name, "loss");
  // Less the pooler (h^2 + h), the transform (h^2 + h, LayerNorm 2h), the output bias (vocab) and
  // NSP (2h + 2); plus qa_outputs (2h + 2).
  const int64_t h = 1024;
  EXPECT_EQ(pretraining.parameters() - squad.parameters(), 2 * (h * h + h) + 2 * h + 30528);
  options.shape.mlm_positions = 20;
  EXPECT_THROW(build_model("bert-large", options), InputError);
}

TEST(Zoo, ImageSizeChangesCnnFlopsNotParameters) {
  // 448 = 2 * 224 keeps every feature map exactly twice as wide: 4x the FLOPs but for the fc.
  ModelOptions large;
  large.image_size = 448;
  const Workload base = build_model("resnet50", ModelOptions{});
  const Workload quadrupled = build_model("resnet50", large);
  EXPECT_EQ(base.parameters(), quadrupled.parameters());
  EXPECT_NEAR(forward_flops(quadrupled) / forward_flops(base), 4.0, 0.01);
  ModelOptions classes;
  classes.num_classes = 10;
  EXPECT_EQ(build_model("resnet50", classes).parameters(), 25'557'032 - 990 * (2048 + 1));
  ModelOptions tiny;
  tiny.image_size = 16;
  EXPECT_THROW(build_model("vgg16", tiny), InputError);
}

TEST(Zoo, DistmlModelsAreFixedToMnist) {
  ModelOptions other;
  other.image_size = 64;
  other.num_classes = 1000;
  EXPECT_EQ(build_model("distml-resnet50-mnist", other).parameters(), 23'548'810);
}

TEST(Zoo, UnknownModelThrowsListingKnownNames) {
  EXPECT_FALSE(has_model("resnet-50"));
  try {
    build_model("resnet-50", ModelOptions{});
    FAIL() << "expected InputError";
  } catch (const InputError& error) {
    const std::string message = error.what();
    EXPECT_NE(message.find("resnet-50"), std::string::npos);
    for (const Expected& e : kExpected) EXPECT_NE(message.find(e.name), std::string::npos);
  }
}

TEST(WorkloadTotals, SumsLayers) {
  Workload w;
  Layer a;
  a.grads = {{"a.weight", 10, 40}, {"a.bias", 2, 8}};
  a.forward_s = 1;
  a.backward_s = 2;
  Layer b;
  b.forward_s = 0.5;
  b.backward_s = 0.25;
  w.layers = {a, b};
  w.optimizer_s = 0.125;
  EXPECT_EQ(a.parameters(), 12);
  EXPECT_EQ(a.grad_bytes(), 48);
  EXPECT_EQ(w.parameters(), 12);
  EXPECT_EQ(w.grad_tensor_count(), 2);
  EXPECT_EQ(w.grad_bytes(), 48);
  EXPECT_DOUBLE_EQ(w.forward_s(), 1.5);
  EXPECT_DOUBLE_EQ(w.backward_s(), 2.25);
  EXPECT_DOUBLE_EQ(w.compute_s(), 3.875);
}

}  // namespace
}  // namespace scalecast::zoo
