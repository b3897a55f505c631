// The model zoo's registry: the names it knows, their descriptions, and dispatch to the family
// builders. Each family cites its reference definition in its own source file.
#include "sim/zoo/zoo.h"

#include <algorithm>
#include <functional>
#include <stdexcept>

#include "sim/io/input_error.h"
#include "sim/zoo/families.h"

namespace scalecast::zoo {
namespace {

ModelInfo fixed(const std::string& name, const std::string& description,
                const std::string& sample_unit) {
  return {name, description, sample_unit, {}, {}};
}

struct Entry {
  ModelInfo info;
  std::function<Workload(const ModelOptions&)> build;
};

const std::vector<Entry>& registry() {
  static const std::vector<Entry> entries = [] {
    std::vector<Entry> list = {
        {{"bert-base", "BERT-Base pretraining (HF BertForPreTraining, 12x768; or head: question-answering)",
          "sequences", {"head", "mlm_positions"}, {}},
         [](const ModelOptions& o) { return build_bert(kBertBase, o); }},
        {{"bert-large", "BERT-Large pretraining (HF BertForPreTraining, 24x1024; or head: question-answering)",
          "sequences", {"head", "mlm_positions"}, {}},
         [](const ModelOptions& o) { return build_bert(kBertLarge, o); }},
        {fixed("distml-resnet101-mnist",
               "ray-project/distml JAX stax ResNet101, MNIST 28x28x1, 10 classes", "images"),
         [](const ModelOptions& o) { return build_distml_resnet(101, o); }},
        {fixed("distml-resnet18-mnist",
               "ray-project/distml JAX stax ResNet18, MNIST 28x28x1, 10 classes", "images"),
         [](const ModelOptions& o) { return build_distml_resnet(18, o); }},
        {fixed("distml-resnet50-mnist",
               "ray-project/distml JAX stax ResNet50, MNIST 28x28x1, 10 classes", "images"),
         [](const ModelOptions& o) { return build_distml_resnet(50, o); }},
        {{"gpt", "GPT-style decoder by shape (HF GPT2LMHeadModel layout)", "sequences",
          {"layers", "hidden", "heads", "intermediate", "tied_embeddings", "dropout"},
          {"layers", "hidden", "heads"}},
         [](const ModelOptions& o) { return build_gpt(gpt_config(o.shape), o); }},
        {fixed("gpt2", "GPT-2 small (HF GPT2LMHeadModel, 12x768, tied embeddings)", "sequences"),
         [](const ModelOptions& o) { return build_gpt(kGpt2, o); }},
        {fixed("gpt2-medium", "GPT-2 medium (HF GPT2LMHeadModel, 24x1024, tied embeddings)",
               "sequences"),
         [](const ModelOptions& o) { return build_gpt(kGpt2Medium, o); }},
        {fixed("gpt3-125m", "GPT-3 Small (Brown et al. 2020: 12x768, context 2048, tied embeddings)", "sequences"),
         [](const ModelOptions& o) { return build_gpt(kGpt3_125m, o); }},
        {fixed("gpt3-350m", "GPT-3 Medium (24x1024, context 2048, tied embeddings)", "sequences"),
         [](const ModelOptions& o) { return build_gpt(kGpt3_350m, o); }},
        {fixed("gpt3-760m", "GPT-3 Large (24x1536, context 2048, tied embeddings)", "sequences"),
         [](const ModelOptions& o) { return build_gpt(kGpt3_760m, o); }},
        {fixed("gpt3-2.7b", "GPT-3 2.7B (32x2560, context 2048, tied embeddings)", "sequences"),
         [](const ModelOptions& o) { return build_gpt(kGpt3_2_7b, o); }},
        {fixed("gpt3-6.7b", "GPT-3 6.7B (32x4096, context 2048, tied embeddings)", "sequences"),
         [](const ModelOptions& o) { return build_gpt(kGpt3_6_7b, o); }},
        {fixed("gpt3-175b", "GPT-3 175B (96x12288, context 2048, tied embeddings)", "sequences"),
         [](const ModelOptions& o) { return build_gpt(kGpt3_175b, o); }},
        {{"llama", "LLaMA-style decoder by shape (HF LlamaForCausalLM layout)", "sequences",
          {"layers", "hidden", "intermediate", "heads", "kv_heads", "tied_embeddings"},
          {"layers", "hidden", "intermediate", "heads"}},
         [](const ModelOptions& o) { return build_llama(llama_config(o.shape), o); }},
        {fixed("llama2-7b", "LLaMA-2-7B (HF LlamaForCausalLM, 32x4096, SwiGLU 11008, untied head)",
               "sequences"),
         [](const ModelOptions& o) { return build_llama(kLlama2_7b, o); }},
        {fixed("llama2-13b", "Llama-2-13B (HF LlamaForCausalLM, 40x5120, SwiGLU 13824, untied head)", "sequences"),
         [](const ModelOptions& o) { return build_llama(kLlama2_13b, o); }},
        {fixed("llama2-70b", "Llama-2-70B (80x8192, SwiGLU 28672, 8 K/V heads, untied head)", "sequences"),
         [](const ModelOptions& o) { return build_llama(kLlama2_70b, o); }},
        {fixed("llama3-8b", "Llama-3-8B (32x4096, SwiGLU 14336, 8 K/V heads, vocabulary 128256)", "sequences"),
         [](const ModelOptions& o) { return build_llama(kLlama3_8b, o); }},
        {fixed("llama3-70b", "Llama-3-70B (80x8192, SwiGLU 28672, 8 K/V heads, vocabulary 128256)", "sequences"),
         [](const ModelOptions& o) { return build_llama(kLlama3_70b, o); }},
        {fixed("mistral-7b", "Mistral-7B v0.1 dense (32x4096, SwiGLU 14336, 8 K/V heads; sliding window not modelled)",
               "sequences"),
         [](const ModelOptions& o) { return build_llama(kMistral7b, o); }},
        {fixed("mobilenet_v2", "torchvision mobilenet_v2 (width 1.0)", "images"), build_mobilenet_v2},
        {fixed("resnet101", "torchvision resnet101 (Bottleneck)", "images"),
         [](const ModelOptions& o) { return build_resnet(101, o); }},
        {fixed("resnet18", "torchvision resnet18 (BasicBlock)", "images"),
         [](const ModelOptions& o) { return build_resnet(18, o); }},
        {fixed("resnet50", "torchvision resnet50 (Bottleneck, stride on the 3x3 conv)", "images"),
         [](const ModelOptions& o) { return build_resnet(50, o); }},
        {fixed("vgg16", "torchvision vgg16 (configuration D, no batch norm)", "images"), build_vgg16},
    };
    std::sort(list.begin(), list.end(),
              [](const Entry& a, const Entry& b) { return a.info.name < b.info.name; });
    return list;
  }();
  return entries;
}

const Entry* find(const std::string& name) {
  for (const Entry& entry : registry()) {
    if (entry.info.name == name) return &entry;
  }
  return nullptr;
}

}  // namespace

std::vector<ModelInfo> list_models() {
  std::vector<ModelInfo> infos;
  for (const Entry& entry : registry()) infos.push_back(entry.info);
  return infos;
}

bool has_model(const std::string& name) { return find(name) != nullptr; }

const ModelInfo* model_info(const std::string& name) {
  const Entry* entry = find(name);
  return entry ? &entry->info : nullptr;
}

Workload build_model(const std::string& name, const ModelOptions& options) {
  const Entry* entry = find(name);
  if (entry == nullptr) {
    std::string known;
    for (const Entry& e : registry()) known += (known.empty() ? "" : ", ") + e.info.name;
    throw InputError("unknown model '" + name + "'; known models: " + known);
  }
  Workload workload = entry->build(options);
  workload.model = entry->info.name;
  workload.sample_unit = entry->info.sample_unit;
  return workload;
}

}  // namespace scalecast::zoo
