// GPT-style decoders (HuggingFace GPT2LMHeadModel) built layer by layer from their shape.
// Reference: HuggingFace transformers models/gpt2/modeling_gpt2.py (GPT2LMHeadModel).
#include <stdexcept>
#include <string>

#include "sim/io/input_error.h"
#include "sim/zoo/families.h"
#include "sim/zoo/layers.h"

namespace scalecast::zoo {
namespace {

struct Dims {
  int64_t seq;
  int64_t hidden;
  int64_t heads;
  int64_t intermediate;
};

// ln_1, fused QKV (Conv1D c_attn), attention, c_proj, residual; ln_2, MLP, residual; the
// dropout layers only where the model has them.
void block(NetBuilder& net, const std::string& p, const Dims& d, bool dropout) {
  const int64_t activations = d.seq * d.hidden;
  layernorm(net, p + "ln_1", d.seq, d.hidden);
  linear(net, p + "attn.c_attn", d.seq, d.hidden, 3 * d.hidden);
  attention(net, p + "attn.", d.seq, d.hidden, d.heads, dropout);
  linear(net, p + "attn.c_proj", d.seq, d.hidden, d.hidden);
  if (dropout) elementwise(net, p + "attn.resid_dropout", "dropout", activations, 1);
  elementwise(net, p + "attn_residual", "add", activations, 1, 2);
  layernorm(net, p + "ln_2", d.seq, d.hidden);
  linear(net, p + "mlp.c_fc", d.seq, d.hidden, d.intermediate);
  elementwise(net, p + "mlp.act", "gelu", d.seq * d.intermediate, kGeluFlopsPerElement);
  linear(net, p + "mlp.c_proj", d.seq, d.intermediate, d.hidden);
  if (dropout) elementwise(net, p + "mlp.dropout", "dropout", activations, 1);
  elementwise(net, p + "mlp_residual", "add", activations, 1, 2);
}

}  // namespace

GptConfig gpt_config(const TransformerShape& shape) {
  if (shape.layers < 1 || shape.hidden < 1 || shape.heads < 1) {
    throw InputError("gpt: layers, hidden and heads must be given");
  }
  GptConfig config;
  config.layers = shape.layers;
  config.hidden = shape.hidden;
  config.heads = shape.heads;
  config.intermediate = shape.intermediate > 0 ? shape.intermediate : 4 * shape.hidden;
  config.positions = 0;
  config.tied_embeddings = shape.tied_embeddings.value_or(true);
  config.dropout = shape.dropout.value_or(true);
  return config;
}

Workload build_gpt(const GptConfig& config, const ModelOptions& options) {
  const int64_t positions = config.positions > 0 ? config.positions : options.seq_len;
  if (options.seq_len < 1 || options.seq_len > positions) {
    throw InputError("gpt: seq_len must be in [1, " + std::to_string(positions) +
                     "], got " + std::to_string(options.seq_len));
  }
  if (config.layers < 1 || config.intermediate < 1 || options.vocab_size < 0) {
    throw InputError("gpt: layers, intermediate and vocab_size must be positive");
  }
  check_heads("gpt", config.hidden, config.heads, config.heads);
  const Dims d{options.seq_len, config.hidden, config.heads, config.intermediate};
  const int64_t vocab = options.vocabulary(config.vocab);
  const int64_t activations = d.seq * d.hidden;
  NetBuilder net(options.bytes_per_element, ParamStyle::kTorch);
  embedding(net, "transformer.wte", d.seq, vocab, d.hidden);
  embedding(net, "transformer.wpe", d.seq, positions, d.hidden);
  elementwise(net, "transformer.add_position", "add", activations, 1, 2);
  if (config.dropout) elementwise(net, "transformer.drop", "dropout", activations, 1);
  for (int i = 0; i < config.layers; ++i) {
    block(net, "transformer.h." + std::to_string(i) + ".", d, config.dropout);
  }
  layernorm(net, "transformer.ln_f", d.seq, d.hidden);
  lm_head(net, d.seq, d.hidden, vocab, config.tied_embeddings);
  Workload w = net.finish();
  w.causal_attention = true;
  return w;
}

}  // namespace scalecast::zoo
