// ResNet-50 (batch 64) and BERT-Base (batch 32) on the catalog's H200 through the compute model,
// at the precision each was measured at; per layer kind, the profile's times against the zoo's.
// No constant is fitted to these measurements.
#include "validation/h200_layers.h"

#include <algorithm>
#include <fmt/format.h>
#include <map>
#include <sstream>

#include "sim/io/json_reader.h"
#include "sim/formats/profile_csv.h"
#include "sim/compute/profile_zoo_match.h"
#include "sim/report/text_table.h"
#include "sim/scenario/scenario.h"
#include "sim/scenario/workload_builder.h"
#include "sim/io/input_error.h"

namespace scalecast::validation {
namespace {

struct Measured {
  const char* model;
  const char* profile;
  const char* precision;  // as the README says the run computed
};

// torchvision's ResNet-50 in fp32 runs its convolutions in TF32 (cuDNN's default), so tf32;
// BERT-Base in fp32 runs its matrix products in full fp32 (PyTorch's default for matmul).
constexpr Measured kMeasured[] = {{"resnet50", "resnet50-bs64-profile.csv", "tf32"},
                                  {"bert-base", "bert-base-bs32-profile.csv", "fp32"}};

// The zoo layers' kinds, each once, in order, joined by "+".
std::string kinds_of(const std::vector<std::size_t>& zoo_layers, const Workload& zoo) {
  std::vector<std::string> kinds;
  for (const std::size_t z : zoo_layers)
    if (std::find(kinds.begin(), kinds.end(), zoo.layers[z].kind) == kinds.end()) kinds.push_back(zoo.layers[z].kind);
  std::string out;
  for (const auto& k : kinds) out += (out.empty() ? "" : "+") + k;
  return out;
}

void compare_layers(H200ModelCheck& c, const Workload& profile, const Workload& zoo) {
  const auto matches = match_zoo_layers(profile, zoo);
  std::vector<bool> profiled(zoo.layers.size(), false);
  std::map<std::string, LayerKindTimes> kinds;
  for (std::size_t i = 0; i < profile.layers.size(); ++i) {
    const double measured = profile.layers[i].forward_s + profile.layers[i].backward_s;
    if (measured <= 0) continue;
    for (const std::size_t z : matches[i]) profiled[z] = true;
    ++c.timed_layers;
    if (matches[i].empty()) {
      ++c.unmatched_layers;
      c.unmatched_s += measured;
      continue;
    }
    LayerKindTimes& k = kinds[kinds_of(matches[i], zoo)];
    ++k.layers;
    k.measured_s += measured;
    for (const std::size_t z : matches[i]) k.predicted_s += zoo.layers[z].forward_s + zoo.layers[z].backward_s;
  }
  for (std::size_t z = 0; z < zoo.layers.size(); ++z)
    if (!profiled[z]) {
      ++c.unprofiled_layers;
      c.unprofiled_s += zoo.layers[z].forward_s + zoo.layers[z].backward_s;
    }
  for (auto& [kind, k] : kinds) {
    k.kind = kind;
    c.kinds.push_back(k);
  }
  std::stable_sort(c.kinds.begin(), c.kinds.end(),
                   [](const LayerKindTimes& a, const LayerKindTimes& b) { return a.measured_s > b.measured_s; });
}

H200ModelCheck check_model(const Measured& m, const std::string& folder, const nlohmann::json& steps) {
  H200ModelCheck c;
  c.model = m.model;
  c.precision = m.precision;
  c.profile = m.profile;
  const Profile profile = read_profile_csv(folder + "/" + m.profile, 4);
  if (!profile.metadata.count("batch_per_gpu"))
    throw InputError(InputKind::file, profile.path + ": batch_per_gpu: expected the profiled batch, got none");
  c.batch = profile.workload.batch_per_gpu;
  const JsonReader times(steps, folder + "/torch-step-times.json");
  const JsonReader run = times.require(m.model);
  if (run.require("batch").integer(1, 1 << 20) != c.batch)
    throw InputError(InputKind::file, folder + "/torch-step-times.json: /" + c.model + "/batch: expected " + std::to_string(c.batch) +
                    " (the batch of " + m.profile + "), got " + run.require("batch").value().dump());
  const JsonReader modes = run.require("modes");
  c.measured_step_s = modes.require("plain").require("step_ms_mean").number(Bound::between(1e-6, 1e9)) / 1e3;
  c.measured_gpu_s =
      modes.require("torch-profiler").require("cuda_self_ms_per_step").number(Bound::between(1e-6, 1e9)) / 1e3;

  Scenario s;
  s.path = folder;
  s.compute.gpu = "h200";
  s.model.name = m.model;
  s.model.batch_per_gpu = c.batch;
  s.model.precision = parse_precision(m.precision);
  s.model.optimizer = "sgd";  // profile_torch.py: SGD with momentum
  const Workload zoo = build_workload(s).workload;
  c.predicted_step_s = zoo.compute_s();
  compare_layers(c, profile.workload, zoo);
  return c;
}

}  // namespace

H200Check check_h200(const std::string& folder) {
  const nlohmann::json steps = read_json_file(folder + "/torch-step-times.json", "a step-times file");
  H200Check v;
  for (const Measured& m : kMeasured) v.models.push_back(check_model(m, folder, steps));
  return v;
}

void write_h200_summary(std::ostream& out, const H200Check& v) {
  out << "\ncompute on one H200 (validation/data/h200-gpu-check): measured training steps against the compute "
         "model, zero-shot from the zoo\n";
  TextTable steps({"model", "precision", "batch", "step", "GPU time", "predicted", "error", "vs GPU time"},
                  {"", "", "", "ms", "ms", "ms", "%", "%"});
  for (const auto& c : v.models)
    steps.add_row({c.model, c.precision, std::to_string(c.batch), fmt::format("{:.2f}", c.measured_step_s * 1e3),
                   fmt::format("{:.2f}", c.measured_gpu_s * 1e3), fmt::format("{:.2f}", c.predicted_step_s * 1e3),
                   fmt::format("{:+.1f}", 100 * c.error()), fmt::format("{:+.1f}", 100 * c.gpu_error())});
  steps.write(out);
  out << "per layer kind, forward + backward: the profile's layers (scalecast profile) against the zoo's\n";
  TextTable kinds({"model", "kind", "layers", "measured", "predicted", "predicted/measured"},
                  {"", "", "", "ms", "ms", ""});
  for (const auto& c : v.models)
    for (const auto& k : c.kinds)
      kinds.add_row({c.model, k.kind, std::to_string(k.layers), fmt::format("{:.3f}", k.measured_s * 1e3),
                     fmt::format("{:.3f}", k.predicted_s * 1e3), fmt::format("{:.2f}", k.ratio())});
  kinds.write(out);
  for (const auto& c : v.models)
    out << fmt::format("{}: {} of {} timed profile rows matched zoo layers ({} unmatched, {:.3f} ms); {} zoo layers "
                       "in no profile row ({:.3f} ms predicted)\n",
                       c.model, c.timed_layers - c.unmatched_layers, c.timed_layers, c.unmatched_layers,
                       c.unmatched_s * 1e3, c.unprofiled_layers, c.unprofiled_s * 1e3);
}

std::string h200_markdown(const H200Check& v) {
  std::ostringstream out;
  out << "## Compute on one H200 (validation/data/h200-gpu-check)\n\nThe measured plain training step and the GPU's "
         "busy time in it (torch.profiler) against the compute model's step from the zoo (no profile, no measured "
         "throughput); error = (predicted - measured) / measured.\n\n"
         "| model | precision | batch | step (ms) | GPU time (ms) | predicted (ms) | error | vs GPU time |\n"
         "| :-- | :-- | --: | --: | --: | --: | --: | --: |\n";
  for (const auto& c : v.models)
    out << fmt::format("| {} | {} | {} | {:.2f} | {:.2f} | {:.2f} | {:+.1f}% | {:+.1f}% |\n", c.model, c.precision,
                       c.batch, c.measured_step_s * 1e3, c.measured_gpu_s * 1e3, c.predicted_step_s * 1e3,
                       100 * c.error(), 100 * c.gpu_error());
  out << "\nEach profiled layer (forward + backward) against the zoo layers it measured (a module's own time "
         "covers the kernels it runs outside its child modules), by the zoo layers' kind:\n\n"
         "| model | kind | layers | measured (ms) | predicted (ms) | predicted / measured |\n"
         "| :-- | :-- | --: | --: | --: | --: |\n";
  for (const auto& c : v.models)
    for (const auto& k : c.kinds)
      out << fmt::format("| {} | {} | {} | {:.3f} | {:.3f} | {:.2f} |\n", c.model, k.kind, k.layers,
                         k.measured_s * 1e3, k.predicted_s * 1e3, k.ratio());
  out << "\n";
  for (const auto& c : v.models)
    out << fmt::format("- {} ({}): {} of {} timed rows matched; {} unmatched ({:.3f} ms); {} zoo layers in no "
                       "row ({:.3f} ms predicted)\n",
                       c.model, c.profile, c.timed_layers - c.unmatched_layers, c.timed_layers, c.unmatched_layers,
                       c.unmatched_s * 1e3, c.unprofiled_layers, c.unprofiled_s * 1e3);
  return out.str();
}

}  // namespace scalecast::validation
