// Reads the parameter list a training script writes beside its trace (the legacy profiler
// records no tensor shapes) and puts each parameter's gradient on the layer of its module.
#include "profiler/parameter_list.h"

#include <charconv>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "sim/input_error.h"

namespace scalecast::profiler {
namespace {

int dtype_bytes(const std::string& dtype) {
  static const std::map<std::string, int> sizes = {
      {"torch.float32", 4}, {"torch.float", 4},    {"torch.float16", 2}, {"torch.half", 2},
      {"torch.bfloat16", 2}, {"torch.float64", 8}, {"torch.double", 8}};
  const auto it = sizes.find(dtype);
  return it == sizes.end() ? 0 : it->second;
}

std::string precision_of(const std::set<std::string>& dtypes) {
  if (dtypes == std::set<std::string>{"torch.float32"}) return "fp32";
  if (dtypes == std::set<std::string>{"torch.float16"}) return "fp16";
  return "";
}

}  // namespace

std::vector<Parameter> parse_parameter_list(const std::string& text, const std::string& path) {
  std::istringstream in(text);
  std::string line;
  int line_no = 0;
  std::vector<Parameter> list;
  const auto fail = [&](const std::string& column, const std::string& expected,
                        const std::string& got) {
    throw SourceError(path + ":" + std::to_string(line_no) + ": " + column + ": expected " +
                      expected + ", got '" + got + "'");
  };
  while (std::getline(in, line)) {
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line_no == 1) {
      if (line != "parameter,elements,dtype") fail("header", "parameter,elements,dtype", line);
      continue;
    }
    if (line.empty()) continue;
    std::vector<std::string> fields;
    std::istringstream split(line);
    for (std::string field; std::getline(split, field, ',');) fields.push_back(field);
    if (fields.size() != 3) fail("row", "3 fields", line);
    Parameter p{fields[0], 0, fields[2], dtype_bytes(fields[2])};
    if (p.name.empty()) fail("parameter", "a parameter name", "");
    const auto [end, error] =
        std::from_chars(fields[1].data(), fields[1].data() + fields[1].size(), p.elements);
    if (error != std::errc() || end != fields[1].data() + fields[1].size() || p.elements < 1)
      fail("elements", "a positive integer", fields[1]);
    if (p.element_bytes == 0)
      fail("dtype", "a floating-point torch dtype (torch.float32, torch.float16, ...)", p.dtype);
    list.push_back(std::move(p));
  }
  if (line_no == 0) throw SourceError(path + ":1: header: expected parameter,elements,dtype, got an empty file");
  return list;
}

std::vector<Parameter> read_parameter_list(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw SourceError(path + ": expected a readable parameter list, got one that cannot be opened");
  std::ostringstream text;
  text << in.rdbuf();
  return parse_parameter_list(text.str(), path);
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
    for (size_t i = 0; i < unplaced.size() && i < 5; ++i) names += (i ? ", " : "") + unplaced[i];
    if (unplaced.size() > 5) names += ", ...";
    warnings.push_back(std::to_string(unplaced.size()) +
                       " parameters belong to no profiled layer (not in the profile): " + names);
  }
  return warnings;
}

}  // namespace scalecast::profiler
