// The model zoo's registry: the names it knows, their descriptions, and dispatch to the family
// builders. Each family cites its reference definition in its own source file.
#include "sim/zoo/zoo.h"

#include <algorithm>
#include <functional>
#include <stdexcept>

#include "sim/zoo/families.h"

namespace scalecast::zoo {
namespace {

struct Entry {
  ModelInfo info;
  std::function<Workload(const ModelOptions&)> build;
};

const std::vector<Entry>& registry() {
  static const std::vector<Entry> entries = [] {
    std::vector<Entry> list = {
        {{"bert-base", "BERT-Base pretraining (HF BertForPreTraining, 12x768)", "sequences"},
         [](const ModelOptions& o) { return build_bert(kBertBase, o); }},
        {{"bert-large", "BERT-Large pretraining (HF BertForPreTraining, 24x1024)", "sequences"},
         [](const ModelOptions& o) { return build_bert(kBertLarge, o); }},
        {{"distml-resnet101-mnist",
          "ray-project/distml JAX stax ResNet101, MNIST 28x28x1, 10 classes", "images"},
         [](const ModelOptions& o) { return build_distml_resnet(101, o); }},
        {{"distml-resnet18-mnist",
          "ray-project/distml JAX stax ResNet18, MNIST 28x28x1, 10 classes", "images"},
         [](const ModelOptions& o) { return build_distml_resnet(18, o); }},
        {{"distml-resnet50-mnist",
          "ray-project/distml JAX stax ResNet50, MNIST 28x28x1, 10 classes", "images"},
         [](const ModelOptions& o) { return build_distml_resnet(50, o); }},
        {{"mobilenet_v2", "torchvision mobilenet_v2 (width 1.0)", "images"}, build_mobilenet_v2},
        {{"resnet101", "torchvision resnet101 (Bottleneck)", "images"},
         [](const ModelOptions& o) { return build_resnet(101, o); }},
        {{"resnet18", "torchvision resnet18 (BasicBlock)", "images"},
         [](const ModelOptions& o) { return build_resnet(18, o); }},
        {{"resnet50", "torchvision resnet50 (Bottleneck, stride on the 3x3 conv)", "images"},
         [](const ModelOptions& o) { return build_resnet(50, o); }},
        {{"vgg16", "torchvision vgg16 (configuration D, no batch norm)", "images"}, build_vgg16},
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
