// HuggingFace BertForPreTraining (masked-LM and next-sentence heads) or BertForQuestionAnswering
// built layer by layer. Reference: HuggingFace transformers models/bert/modeling_bert.py.
#include <stdexcept>
#include <string>

#include "sim/io/input_error.h"
#include "sim/zoo/families.h"
#include "sim/zoo/layers.h"

namespace scalecast::zoo {
namespace {

constexpr int64_t kMaxPositions = 512;  // max_position_embeddings
constexpr int64_t kTokenTypes = 2;      // type_vocab_size
constexpr int64_t kVocab = 30528;       // 30522 word pieces padded to a multiple of 64

struct Dims {
  int64_t seq;
  int64_t hidden;
  int64_t heads;
  int64_t intermediate;
};

void embeddings(NetBuilder& net, const Dims& d, int64_t vocab) {
  const std::string p = "bert.embeddings.";
  const int64_t tokens = d.seq * d.hidden;
  embedding(net, p + "word_embeddings", d.seq, vocab, d.hidden);
  embedding(net, p + "token_type_embeddings", d.seq, kTokenTypes, d.hidden);
  elementwise(net, p + "add_token_type", "add", tokens, 1, 2);
  embedding(net, p + "position_embeddings", d.seq, kMaxPositions, d.hidden);
  elementwise(net, p + "add_position", "add", tokens, 1, 2);
  layernorm(net, p + "LayerNorm", d.seq, d.hidden);
  elementwise(net, p + "dropout", "dropout", tokens, 1);
}

void self_attention(NetBuilder& net, const std::string& p, const Dims& d) {
  for (const char* projection : {"query", "key", "value"}) {
    linear(net, p + projection, d.seq, d.hidden, d.hidden);
  }
  attention(net, p, d.seq, d.hidden, d.heads, true);
}

// dense, dropout, LayerNorm(dropout(dense(x)) + residual): BertSelfOutput and BertOutput.
void output_block(NetBuilder& net, const std::string& p, const Dims& d, int64_t in_features) {
  const int64_t activations = d.seq * d.hidden;
  linear(net, p + "dense", d.seq, in_features, d.hidden);
  elementwise(net, p + "dropout", "dropout", activations, 1);
  elementwise(net, p + "add", "add", activations, 1, 2);
  layernorm(net, p + "LayerNorm", d.seq, d.hidden);
}

void encoder_layer(NetBuilder& net, const std::string& p, const Dims& d) {
  self_attention(net, p + "attention.self.", d);
  output_block(net, p + "attention.output.", d, d.hidden);
  linear(net, p + "intermediate.dense", d.seq, d.hidden, d.intermediate);
  elementwise(net, p + "intermediate.intermediate_act_fn", "gelu", d.seq * d.intermediate,
              kGeluFlopsPerElement);
  output_block(net, p + "output.", d, d.intermediate);
}

// BertForPreTraining's heads: the pooler and next-sentence prediction on the first token, the
// masked-LM transform, decoder and loss on `mlm_rows` positions of each sequence.
void pretraining_heads(NetBuilder& net, const Dims& d, int64_t vocab, int64_t mlm_rows) {
  // BertPooler: dense + tanh on the first token only.
  linear(net, "bert.pooler.dense", 1, d.hidden, d.hidden);
  elementwise(net, "bert.pooler.activation", "tanh", d.hidden, kTanhFlopsPerElement);
  const std::string p = "cls.predictions.";
  linear(net, p + "transform.dense", mlm_rows, d.hidden, d.hidden);
  elementwise(net, p + "transform.transform_act_fn", "gelu", mlm_rows * d.hidden, kGeluFlopsPerElement);
  layernorm(net, p + "transform.LayerNorm", mlm_rows, d.hidden);
  // The decoder: a product with the word embeddings' weight (tied, so its gradient is accumulated
  // there and its only own parameter is the output bias, registered as cls.predictions.bias),
  // then the masked-LM loss over its logits (BertForPreTraining's CrossEntropyLoss).
  Layer& decoder = net.add(p + "decoder", "linear",
                           2.0 * static_cast<double>(mlm_rows * d.hidden) * static_cast<double>(vocab) +
                               static_cast<double>(mlm_rows * vocab),
                           mlm_rows * d.hidden, mlm_rows * vocab);
  decoder.matmul = {.m = static_cast<double>(mlm_rows), .n = static_cast<double>(vocab),
                    .k = static_cast<double>(d.hidden)};
  net.param(decoder, p + "bias", vocab);
  cross_entropy(net, "loss", mlm_rows, vocab);
  // Next-sentence prediction on the pooled output.
  linear(net, "cls.seq_relationship", 1, d.hidden, 2);
}

// BertForQuestionAnswering's head: a start and an end logit for every token, each a loss over the
// sequence's positions.
void question_answering_head(NetBuilder& net, const Dims& d) {
  linear(net, "qa_outputs", d.seq, d.hidden, 2);
  cross_entropy(net, "loss", 2, d.seq);
}

}  // namespace

Workload build_bert(const BertConfig& config, const ModelOptions& options) {
  if (options.seq_len < 1 || options.seq_len > kMaxPositions) {
    throw InputError("bert: seq_len must be in [1, 512], got " +
                     std::to_string(options.seq_len));
  }
  if (options.vocab_size < 0) {
    throw InputError("bert: vocab_size must be positive, got " +
                     std::to_string(options.vocab_size));
  }
  if (options.shape.mlm_positions > options.seq_len) {
    throw InputError("bert: mlm_positions (" + std::to_string(options.shape.mlm_positions) +
                     ") must be at most seq_len (" + std::to_string(options.seq_len) + ")");
  }
  if (options.shape.mlm_positions > 0 && options.shape.head == "question-answering") {
    throw InputError("bert: no mlm_positions with head question-answering (it has no masked-LM head)");
  }
  const Dims d{options.seq_len, config.hidden, config.heads, config.intermediate};
  const int64_t vocab = options.vocabulary(kVocab);
  NetBuilder net(options.bytes_per_element, ParamStyle::kTorch);
  embeddings(net, d, vocab);
  for (int i = 0; i < config.layers; ++i) {
    encoder_layer(net, "bert.encoder.layer." + std::to_string(i) + ".", d);
  }
  if (options.shape.head == "question-answering")
    question_answering_head(net, d);
  else
    pretraining_heads(net, d, vocab, options.shape.mlm_positions > 0 ? options.shape.mlm_positions : d.seq);
  return net.finish();
}

}  // namespace scalecast::zoo
