// LLaMA-style decoders (HuggingFace LlamaForCausalLM) built layer by layer from their shape:
// RMSNorm, rotary grouped-query attention, SwiGLU MLP, no biases.
// Reference: HuggingFace transformers models/llama/modeling_llama.py (LlamaForCausalLM).
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
  int64_t kv_hidden;  // K/V width: kv_heads x head size
  int64_t intermediate;
};

void self_attention(NetBuilder& net, const std::string& p, const Dims& d) {
  linear(net, p + "q_proj", d.seq, d.hidden, d.hidden, false);
  linear(net, p + "k_proj", d.seq, d.hidden, d.kv_hidden, false);
  linear(net, p + "v_proj", d.seq, d.hidden, d.kv_hidden, false);
  elementwise(net, p + "rotary", "rotary", d.seq * (d.hidden + d.kv_hidden),
              kRotaryFlopsPerElement);
  // K and V are repeated to every query head of their group (repeat_kv) before the product.
  attention(net, p, d.seq, d.hidden, d.heads, false);
  linear(net, p + "o_proj", d.seq, d.hidden, d.hidden, false);
}

// down_proj(silu(gate_proj(x)) * up_proj(x))
void mlp(NetBuilder& net, const std::string& p, const Dims& d) {
  const int64_t wide = d.seq * d.intermediate;
  linear(net, p + "gate_proj", d.seq, d.hidden, d.intermediate, false);
  elementwise(net, p + "act_fn", "silu", wide, kSiluFlopsPerElement);
  linear(net, p + "up_proj", d.seq, d.hidden, d.intermediate, false);
  elementwise(net, p + "gate_mul", "mul", wide, 1, 2);
  linear(net, p + "down_proj", d.seq, d.intermediate, d.hidden, false);
}

void decoder_layer(NetBuilder& net, const std::string& p, const Dims& d) {
  const int64_t activations = d.seq * d.hidden;
  rmsnorm(net, p + "input_layernorm", d.seq, d.hidden);
  self_attention(net, p + "self_attn.", d);
  elementwise(net, p + "attn_residual", "add", activations, 1, 2);
  rmsnorm(net, p + "post_attention_layernorm", d.seq, d.hidden);
  mlp(net, p + "mlp.", d);
  elementwise(net, p + "mlp_residual", "add", activations, 1, 2);
}

}  // namespace

LlamaConfig llama_config(const TransformerShape& shape) {
  if (shape.layers < 1 || shape.hidden < 1 || shape.heads < 1 || shape.intermediate < 1) {
    throw InputError("llama: layers, hidden, intermediate and heads must be given");
  }
  LlamaConfig config;
  config.layers = shape.layers;
  config.hidden = shape.hidden;
  config.intermediate = shape.intermediate;
  config.heads = shape.heads;
  config.kv_heads = shape.kv_heads > 0 ? shape.kv_heads : shape.heads;
  config.tied_embeddings = shape.tied_embeddings.value_or(false);
  return config;
}

Workload build_llama(const LlamaConfig& config, const ModelOptions& options) {
  if (options.seq_len < 1 || config.layers < 1 || config.intermediate < 1 ||
      options.vocab_size < 0) {
    throw InputError("llama: seq_len, layers, intermediate and vocab_size must be positive");
  }
  check_heads("llama", config.hidden, config.heads, config.kv_heads);
  const Dims d{options.seq_len, config.hidden, config.heads,
               config.hidden / config.heads * config.kv_heads, config.intermediate};
  const int64_t vocab = options.vocabulary(config.vocab);
  NetBuilder net(options.bytes_per_element, ParamStyle::kTorch);
  embedding(net, "model.embed_tokens", d.seq, vocab, d.hidden);
  for (int i = 0; i < config.layers; ++i) {
    decoder_layer(net, "model.layers." + std::to_string(i) + ".", d);
  }
  rmsnorm(net, "model.norm", d.seq, d.hidden);
  lm_head(net, d.seq, d.hidden, vocab, config.tied_embeddings);
  Workload w = net.finish();
  w.causal_attention = true;
  return w;
}

}  // namespace scalecast::zoo
