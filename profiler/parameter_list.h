// A model's parameters as a CSV `parameter,elements,dtype` (one row per named_parameters()
// entry), and their gradients put on the profile layers of their modules.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "profiler/profile.h"

namespace scalecast::profiler {

struct Parameter {
  std::string name;         // "block.linear1.weight"
  int64_t elements = 0;
  std::string dtype;        // "torch.float32", "torch.float16", "torch.bfloat16", ...
  int element_bytes = 0;
};

// Throws an InputError naming the file, line and column for a malformed list: a row
// without a name, a dtype that is no floating-point torch dtype, dtypes of different sizes, a
// parameter listed twice, more than ranges::kMaxTensors parameters or more than
// ranges::kMaxBytes of them.
std::vector<Parameter> read_parameter_list(const std::string& path);

// Sets every layer's gradient columns from the parameters of its module: a parameter goes to
// the layer named by the longest prefix of its module path ("block.self_attn.out_proj.weight":
// block.self_attn.out_proj, else block.self_attn, else block). Sets the profile's precision from
// the dtypes. Returns warnings: parameters that no layer takes.
std::vector<std::string> assign_parameters(Profile& profile, const std::vector<Parameter>& list);

}  // namespace scalecast::profiler
