// The memory estimate: bytes per parameter by precision and optimizer (ZeRO's accounting of
// mixed-precision training), plus the layers' outputs for the batch, against the catalog's memory.
#include "sim/memory_fit.h"

#include <algorithm>

#include "sim/gpu_catalog.h"
#include "sim/units.h"
#include "sim/zoo/zoo.h"

namespace scalecast {
namespace {

// Weights and activations are kept at 2 B in fp16 (mixed precision) and 4 B otherwise.
double element_bytes(Precision precision) { return precision == Precision::fp16 ? 2 : 4; }

// Optimizer state per parameter, in fp32: SGD's momentum (4 B) or Adam's two moments (8 B), and
// the fp32 master copy of the weights that mixed precision updates (4 B).
double optimizer_bytes_per_parameter(const ModelSettings& model) {
  const double state = model.optimizer == "adam" ? 8 : 4;
  return state + (model.precision == Precision::fp16 ? 4 : 0);
}

int64_t output_elements(const Workload& workload) {
  int64_t total = 0;
  for (const Layer& layer : workload.layers) total += layer.output_elements;
  return total;
}

}  // namespace

double MemoryFit::needed_bytes() const {
  return weights_bytes + gradients_bytes + optimizer_bytes + activations_bytes;
}

std::vector<std::pair<std::string, double>> MemoryFit::parts() const {
  std::vector<std::pair<std::string, double>> list = {{"weights", weights_bytes},
                                                      {"gradients", gradients_bytes},
                                                      {"optimizer state", optimizer_bytes}};
  if (activations_known) list.emplace_back("activations", activations_bytes);
  std::stable_sort(list.begin(), list.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  return list;
}

MemoryFit memory_fit(const Scenario& scenario, const Workload& workload) {
  const ModelSettings& model = scenario.model;
  const double parameters = static_cast<double>(workload.parameters());
  MemoryFit fit;
  fit.gpu = scenario.compute.gpu;
  fit.available_bytes = find_gpu(scenario.compute.gpu).memory_bytes;
  fit.weights_bytes = parameters * element_bytes(model.precision);
  fit.gradients_bytes = static_cast<double>(workload.grad_bytes());
  fit.optimizer_bytes = parameters * optimizer_bytes_per_parameter(model);
  // A profile has times, not shapes: its activations come from the zoo model it names, if any.
  int64_t outputs = output_elements(workload);
  if (!model.profile.empty()) {
    fit.activations_known = zoo::has_model(model.name);
    outputs = fit.activations_known ? output_elements(zoo::build_model(model.name, model.options)) : 0;
  }
  fit.activations_bytes = static_cast<double>(outputs) * model.batch_per_gpu *
                          element_bytes(model.precision);
  return fit;
}

std::string memory_summary(const MemoryFit& fit) {
  std::string text = units::format_memory(fit.needed_bytes()) + " of " +
                     units::format_memory(fit.available_bytes) + " per GPU (";
  bool first = true;
  for (const auto& [name, bytes] : fit.parts()) {
    text += (first ? "" : ", ") + name + " " + units::format_memory(bytes);
    first = false;
  }
  if (!fit.activations_known) text += "; activations not counted: a profile of a model outside the zoo";
  return text + ")";
}

}  // namespace scalecast
