// The model zoo: layer-by-layer descriptions of well-known networks built from their shapes,
// so parameter counts, gradient tensors and FLOPs are exact rather than typed-in totals.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "sim/types/workload.h"

namespace scalecast::zoo {

// The shape of a transformer built by shape (the zoo's "gpt" and "llama"); 0 or unset: the
// family's default where it has one.
struct TransformerShape {
  int layers = 0;
  int hidden = 0;
  int heads = 0;
  int kv_heads = 0;                     // grouped-query attention: K/V heads (0: = heads)
  int intermediate = 0;                 // MLP width (gpt: 4 x hidden by default)
  std::optional<bool> tied_embeddings;  // output head shares the token embedding's weight
  // gpt: GPT-2's dropout layers (true, the default) or none (false: MPT, whose attn_pdrop,
  // resid_pdrop and emb_pdrop default to 0, and PyTorch's dropout at p = 0 returns its input)
  std::optional<bool> dropout;
  // bert: the task head: "pretraining" (the default: BertForPreTraining's masked-LM and
  // next-sentence heads) or "question-answering" (BertForQuestionAnswering: a start and an end
  // logit for every token, no pooler).
  std::string head;
  // bert pretraining: the positions per sequence the masked-LM head predicts (BERT's
  // max_predictions_per_seq, gathered before the head by Google's TensorFlow BERT, PaddlePaddle's
  // and DeepLearningExamples' PyTorch BERT with its dense sequence output); 0: every token, as
  // Hugging Face's BertForPreTraining runs it.
  int mlm_positions = 0;
};

// Settings a model may take; each model reads the ones that apply to it.
struct ModelOptions {
  int image_size = 224;      // CNNs: input height = width
  int num_classes = 1000;    // CNN classifier outputs
  int seq_len = 128;         // transformers: tokens per sequence
  int vocab_size = 0;        // transformers: vocabulary (0: the model's own)
  int bytes_per_element = 4; // gradient precision (fp32 = 4, fp16 = 2)
  TransformerShape shape;    // models built by shape

  // vocab_size, or the model's own vocabulary when it is not set.
  int vocabulary(int model_vocab) const { return vocab_size > 0 ? vocab_size : model_vocab; }
};

struct ModelInfo {
  std::string name;         // e.g. "resnet50"
  std::string description;  // one line, with the reference definition
  std::string sample_unit;  // "images" or "sequences"
  std::vector<std::string> shape_keys;           // TransformerShape fields it reads (by shape)
  std::vector<std::string> required_shape_keys;  // those it cannot do without
};

// Names of every model in the zoo, sorted.
std::vector<ModelInfo> list_models();
bool has_model(const std::string& name);
// The registry's entry for a name, or nullptr.
const ModelInfo* model_info(const std::string& name);
// Builds the layers (FLOPs, memory traffic, gradient tensors). Times are left at zero for the
// compute model or a profile to fill. Throws an InputError for an unknown name.
Workload build_model(const std::string& name, const ModelOptions& options);

}  // namespace scalecast::zoo
