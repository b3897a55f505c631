// Layer widths under torch.autocast: products at half width, the float32 list in fp32, residual
// adds promoted to the fp32 stream of a transformer, the rest at their input's width.
#include "sim/compute/autocast_widths.h"

namespace scalecast {
namespace {

constexpr double kFp32 = 4, kHalf = 2;

}  // namespace

bool opens_branch(const std::string& name) {
  return name.ends_with(".query") || name.ends_with("q_proj") || name.ends_with("gate_proj");
}

bool reads_branch_input(const std::string& name) {
  for (const char* suffix : {".key", ".value", "k_proj", "v_proj", "up_proj"})
    if (name.ends_with(suffix)) return true;
  return false;
}

bool autocast_product(const std::string& kind) { return kind == "conv" || kind == "linear" || kind == "attention"; }

bool autocast_fp32(const std::string& kind) {
  return kind == "layernorm" || kind == "softmax" || kind == "rmsnorm" || kind == "embedding";
}

std::vector<AutocastWidth> autocast_widths(const Workload& workload) {
  std::vector<AutocastWidth> out(workload.layers.size());
  double previous = kFp32, branch_input = kFp32;
  bool fp32_stream = false;
  for (std::size_t i = 0; i < workload.layers.size(); ++i) {
    const Layer& layer = workload.layers[i];
    const std::string& kind = layer.kind;
    AutocastWidth& w = out[i];
    w.input = reads_branch_input(layer.name) ? branch_input : previous;
    if (opens_branch(layer.name)) branch_input = w.input;
    if (autocast_product(kind)) {
      w.output = kHalf;
      w.casts_input = w.input == kFp32;
    } else if (autocast_fp32(kind)) {
      w.output = kFp32;
      w.casts_input = w.input == kHalf && (kind == "softmax" || kind == "layernorm");
      if (kind == "embedding") fp32_stream = true;
    } else if (kind == "add" && fp32_stream) {
      w.output = kFp32;
    } else {
      w.output = w.input;
    }
    previous = w.output;
  }
  return out;
}

}  // namespace scalecast
