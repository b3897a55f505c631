// The profile CSV writer: `# key: value` metadata first, the header row, then layer rows.
// Milliseconds get 6 decimals (1 ns) and step_s 9 decimals, so reading back is exact to 1 ns.
#include "profiler/profile_csv.h"

#include <algorithm>
#include <fmt/format.h>
#include <stdexcept>
#include <string>

#include "sim/io/input_error.h"
#include "sim/report/csv_field.h"

namespace scalecast::profiler {
namespace {

std::string ms(double value) { return fmt::format("{:.6f}", value); }

void check_metadata(const char* key, const std::string& value) {
  if (value.find_first_of("\r\n") != std::string::npos) {
    throw InputError(std::string("profile ") + key + " '" + value +
                     "' holds a line break");
  }
}

void check_layer_name(const std::string& name) {
  if (name.empty()) throw InputError("a profile layer has an empty name");
  if (name.find_first_of("\r\n") != std::string::npos)
    throw InputError("layer name '" + name + "' holds a line break; rename the NVTX range");
}

}  // namespace

void write_profile_csv(std::ostream& out, const Profile& profile) {
  check_metadata("model", profile.model);
  check_metadata("gpu", profile.gpu);
  for (const ProfileLayer& layer : profile.layers) check_layer_name(layer.name);
  // Times are written to 1 ns, and a scenario refuses a profile whose layers take no time.
  const bool timed = std::any_of(profile.layers.begin(), profile.layers.end(), [](const ProfileLayer& l) {
    return l.forward_ms >= 1e-6 || l.backward_ms >= 1e-6;
  });
  if (!timed)
    throw InputError("no layer took 1 ns or more per iteration (forward or backward): a "
                     "scenario cannot use a profile without compute time");

  out << "# scalecast profile v1\n";
  if (!profile.model.empty()) out << "# model: " << profile.model << '\n';
  if (profile.batch_per_gpu > 0) out << "# batch_per_gpu: " << profile.batch_per_gpu << '\n';
  if (!profile.gpu.empty()) out << "# gpu: " << profile.gpu << '\n';
  out << "# iterations: " << profile.iterations << '\n';
  out << "# warmup: " << profile.warmup << '\n';
  out << "# step_s: " << fmt::format("{:.9f}", profile.step_s) << '\n';
  if (!profile.precision.empty()) out << "# precision: " << profile.precision << '\n';
  if (!profile.optimizer.empty()) out << "# optimizer: " << profile.optimizer << '\n';
  out << "layer,forward_ms,backward_ms,grad_tensors,grad_bytes,forward_std_ms,backward_std_ms";
  if (profile.has_grad_tensor_bytes) out << ",grad_tensor_bytes";
  out << '\n';
  for (const ProfileLayer& layer : profile.layers) {
    out << csv_field(layer.name) << ',' << ms(layer.forward_ms) << ',' << ms(layer.backward_ms) << ','
        << layer.grad_tensors << ',' << layer.grad_bytes << ',' << ms(layer.forward_std_ms) << ','
        << ms(layer.backward_std_ms);
    if (profile.has_grad_tensor_bytes) {
      out << ',';
      for (size_t i = 0; i < layer.grad_tensor_bytes.size(); ++i) {
        out << (i ? ";" : "") << layer.grad_tensor_bytes[i];
      }
    }
    out << '\n';
  }
}

}  // namespace scalecast::profiler
