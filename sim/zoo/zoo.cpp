// The model zoo's registry: the names it knows, their descriptions, and dispatch to the family
// builders. Each family cites its reference definition in its own source file.
#include "sim/zoo/zoo.h"

#include <algorithm>
#include <functional>
#include <stdexcept>

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
        {fixed("bert-base", "BERT-Base pretraining (HF BertForPreTraining, 12x768)", "sequences"),
         [](const ModelOptions& o) { return build_bert(kBertBase, o); }},
        {fixed("bert-large", "BERT-Large pretraining (HF BertForPreTraining, 24x1024)", "sequences"),
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
          {"layers", "hidden", "heads", "intermediate", "tied_embeddings"},
          {"layers", "hidden", "heads"}},
         [](const ModelOptions& o) { return build_gpt(gpt_config(o.shape), o); }},
        {fixed("gpt2", "GPT-2 small (HF GPT2LMHeadModel, 12x768, tied embeddings)", "sequences"),
         [](const ModelOptions& o) { return build_gpt(kGpt2, o); }},
        {fixed("gpt2-medium", "GPT-2 medium (HF GPT2LMHeadModel, 24x1024, tied embeddings)",
               "sequences"),
         [](const ModelOptions& o) { return build_gpt(kGpt2Medium, o); }},
        {{"llama", "LLaMA-style decoder by shape (HF LlamaForCausalLM layout)", "sequences",
          {"layers", "hidden", "intermediate", "heads", "kv_heads", "tied_embeddings"},
          {"layers", "hidden", "intermediate", "heads"}},
         [](const ModelOptions& o) { return build_llama(llama_config(o.shape), o); }},
        {fixed("llama2-7b", "LLaMA-2-7B (HF LlamaForCausalLM, 32x4096, SwiGLU 11008, untied head)",
               "sequences"),
         [](const ModelOptions& o) { return build_llama(kLlama2_7b, o); }},
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
    throw std::invalid_argument("unknown model '" + name + "'; known models: " + known);
  }
  Workload workload = entry->build(options);
  workload.model = entry->info.name;
  workload.sample_unit = entry->info.sample_unit;
  return workload;
}

}  // namespace scalecast::zoo
