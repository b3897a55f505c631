// Reads the parameter list a training script writes beside its trace (the legacy profiler
// records no tensor shapes) and puts each parameter's gradient on the layer of its module.
#include "profiler/parameter_list.h"

#include <algorithm>
#include <charconv>
#include <map>
#include <set>

#include "sim/io/csv.h"
#include "sim/io/input_error.h"
#include "sim/io/input_text.h"
#include "sim/io/ranges.h"

namespace scalecast::profiler {
namespace {

int dtype_bytes(const std::string& dtype) {
  static const std::map<std::string, int> sizes = {
      {"torch.float32", 4}, {"torch.float", 4},    {"torch.float16", 2}, {"torch.half", 2},
      {"torch.bfloat16", 2}, {"torch.float64", 8}, {"torch.double", 8}};
  const auto it = sizes.find(dtype);
  return it == sizes.end() ? 0 : it->second;
}

// The precision a scenario names for these dtypes ("" for none: mixed, bfloat16, float64).
std::string precision_of(const std::set<std::string>& dtypes) {
  const auto all_in = [&](std::initializer_list<const char*> names) {
    return !dtypes.empty() && std::all_of(dtypes.begin(), dtypes.end(), [&](const std::string& d) {
      return std::find(names.begin(), names.end(), d) != names.end();
    });
  };
  if (all_in({"torch.float32", "torch.float"})) return "fp32";
  if (all_in({"torch.float16", "torch.half"})) return "fp16";
  return "";
}

}  // namespace

std::vector<Parameter> read_parameter_list(const std::string& path) {
  const CsvFile csv(path);
  if (!csv.has_columns({"parameter", "elements", "dtype"}))
    throw InputError(InputKind::file, path + ":1: header: expected the columns parameter, elements and dtype (one row "
                   "per named_parameters() entry), got others");
  std::vector<Parameter> list;
  std::set<std::string> names;
  int64_t bytes_left = static_cast<int64_t>(ranges::kMaxBytes);
  for (const CsvRecord& r : csv.records()) {
    if (static_cast<int64_t>(list.size()) == ranges::kMaxTensors)
      throw InputError(InputKind::file, path + ":" + std::to_string(r.line()) + ": parameter: expected at most " +
                     std::to_string(ranges::kMaxTensors) + " parameters, got more");
    Parameter p{r.non_empty("parameter"), 0, r.text("dtype"), 0};
    if (!names.insert(p.name).second) r.fail("parameter", "each parameter once");
    p.element_bytes = dtype_bytes(p.dtype);
    if (p.element_bytes == 0)
      r.fail("dtype", "a floating-point torch dtype (torch.float32, torch.float16, ...)");
    // A profile's gradients have one element size, the one a scenario's model.precision gives.
    if (!list.empty() && p.element_bytes != list.front().element_bytes)
      r.fail("dtype", "a dtype of " + std::to_string(list.front().element_bytes) + " bytes like " +
                          list.front().dtype + " before it (a profile carries one gradient precision)");
    // The model's gradients are at most kMaxBytes in all.
    const int64_t most = bytes_left / p.element_bytes;
    const std::string& text = r.text("elements");
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), p.elements);
    if (error != std::errc() || end != text.data() + text.size() || p.elements < 1 || p.elements > most)
      r.fail("elements", "an integer in [1, " + std::to_string(most) +
                             "] (the model's gradients at most 1 PB in all)");
    bytes_left -= p.elements * p.element_bytes;
    list.push_back(std::move(p));
  }
  if (list.empty()) throw InputError(InputKind::file, path + ": expected at least one parameter row, got none");
  return list;
}

std::vector<std::string> assign_parameters(Profile& profile, const std::vector<Parameter>& list) {
  std::map<std::string, ProfileLayer*> layers;
  for (ProfileLayer& layer : profile.layers) {
    layer.grad_tensors = 0;
    layer.grad_bytes = 0;
    layer.grad_tensor_bytes.clear();
    layers[layer.name] = &layer;
  }
  std::vector<std::string> unplaced;
  std::set<std::string> dtypes;
  for (const Parameter& p : list) {
    dtypes.insert(p.dtype);
    ProfileLayer* owner = nullptr;
    for (std::string module = p.name; !owner;) {
      const size_t dot = module.rfind('.');
      if (dot == std::string::npos) break;
      module.resize(dot);
      const auto it = layers.find(module);
      if (it != layers.end()) owner = it->second;
    }
    if (!owner) {
      unplaced.push_back(p.name);
      continue;
    }
    const int64_t bytes = p.elements * p.element_bytes;
    ++owner->grad_tensors;
    owner->grad_bytes += bytes;
    owner->grad_tensor_bytes.push_back(bytes);
  }
  profile.has_grad_tensor_bytes = true;
  profile.precision = precision_of(dtypes);
  std::vector<std::string> warnings;
  if (!unplaced.empty()) {
    std::string names;
    for (size_t i = 0; i < unplaced.size() && i < 5; ++i)
      names += (i ? ", " : "") + quote_input(unplaced[i]);
    if (unplaced.size() > 5) names += ", ...";
    warnings.push_back(std::to_string(unplaced.size()) +
                       " parameters belong to no profiled layer (not in the profile): " + names);
  }
  return warnings;
}

}  // namespace scalecast::profiler
