// Memory per GPU of data-parallel training: weights, gradients, optimizer state and the
// activations kept for the backward pass, against the GPU's memory (formulas in docs/MODEL.md).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "sim/scenario.h"
#include "sim/workload.h"

namespace scalecast {

struct MemoryFit {
  double weights_bytes = 0;      // the model at the training precision
  double gradients_bytes = 0;    // as the backward pass writes them (what is communicated)
  double optimizer_bytes = 0;    // momentum / Adam moments in fp32, and fp32 master weights at fp16
  double activations_bytes = 0;  // every layer's output for the batch, at the training precision
  bool activations_known = true; // false: a profile of a model outside the zoo (not counted)
  double available_bytes = 0;    // the GPU's memory
  std::string gpu;               // catalog key

  double needed_bytes() const;
  bool fits() const { return needed_bytes() <= available_bytes; }
  // The parts, largest first: {"activations", bytes}, {"optimizer state", bytes}, ...
  std::vector<std::pair<std::string, double>> parts() const;
};

MemoryFit memory_fit(const Scenario& scenario, const Workload& workload);

// "11.2 GiB of 80 GiB per GPU (activations 5.5 GiB, optimizer state 4.01 GiB, ...)".
std::string memory_summary(const MemoryFit& fit);

}  // namespace scalecast
