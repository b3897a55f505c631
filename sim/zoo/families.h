// Builders of the zoo's model families, one source file each; the registry (zoo.cpp) names
// them and fills in Workload::model and Workload::sample_unit.
#pragma once

#include "sim/workload.h"
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

// ray-project/distml JAX stax ResNet on MNIST (28x28x1, 10 classes): depth 18, 50 or 101.
Workload build_distml_resnet(int depth, const ModelOptions& options);

}  // namespace scalecast::zoo
