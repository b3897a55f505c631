// Turns a profile into the scenario's workload: refuses a precision, optimizer or GPU other than
// the scenario's, scales the layers to the scenario's batch and takes the optimizer step from the
// profile's step time or the compute model (docs/MODEL.md, "Profiles").
#include "sim/profile_workload.h"

#include <filesystem>
#include <fmt/format.h>

#include "sim/gpu_catalog.h"
#include "sim/profile_csv.h"
#include "sim/zoo/zoo.h"

namespace scalecast {
namespace {

// A recorded value that must equal the scenario's `key`; measured times are not converted.
void require_same(const Profile& profile, const std::string& key, const std::string& wanted,
                  const std::string& scenario_key, const std::string& scenario_path) {
  const auto it = profile.metadata.find(key);
  if (it == profile.metadata.end() || it->second == wanted) return;
  throw ProfileError(profile.where(key) + ": expected " + wanted + " as " + scenario_key + " in " +
                     scenario_path + ", got '" + it->second +
                     "' (measured times are not converted: profile with " + wanted + ", or set " +
                     scenario_key + ": " + it->second + ")");
}

// The catalog GPU the profile was measured on must be the scenario's; returns a note for the
// source line ("" when it is the scenario's).
std::string check_gpu(const Profile& profile, const Scenario& s) {
  const auto it = profile.metadata.find("gpu");
  if (it == profile.metadata.end()) return "; measured on an unrecorded device";
  const GpuSpec* measured = gpu_for_device_name(it->second);
  if (measured == nullptr) return "; measured on '" + it->second + "' (not in the catalog)";
  if (measured->name != s.compute.gpu)
    throw ProfileError(profile.where("gpu") + ": expected a " + s.compute.gpu + " as gpu.type in " +
                       s.path + ", got '" + it->second + "' (" + measured->name +
                       "; measured times are not converted: profile on a " + s.compute.gpu +
                       ", or set gpu.type: " + measured->name + ")");
  return "";
}

}  // namespace

BuiltWorkload profile_workload(const Scenario& s, const ComputeModelParams& params) {
  Profile profile = read_profile_csv(s.model.profile, s.model.options.bytes_per_element);
  require_same(profile, "precision", to_string(s.model.precision), "model.precision", s.path);
  require_same(profile, "optimizer", s.model.optimizer, "model.optimizer", s.path);
  BuiltWorkload out;
  out.source = "profile " + s.model.profile + check_gpu(profile, s);
  Workload& w = out.workload;
  w = std::move(profile.workload);
  if (w.model.empty())
    w.model = s.model.name.empty() ? std::filesystem::path(s.model.profile).stem().string()
                                   : s.model.name;
  if (zoo::has_model(s.model.name))
    w.sample_unit = zoo::build_model(s.model.name, s.model.options).sample_unit;

  const double layers_s = w.forward_s() + w.backward_s();
  if (profile.metadata.count("step_s")) {
    const double step_s = std::stod(profile.metadata["step_s"]);
    if (step_s < layers_s)
      throw ProfileError(profile.where("step_s") + ": expected at least the layers' forward + " +
                         "backward (" + fmt::format("{:.9f}", layers_s) + " s), got '" +
                         profile.metadata["step_s"] +
                         "' (remove the line to take the optimizer step from the compute model)");
    w.optimizer_s = step_s - layers_s;
    out.source += "; " + fmt::format("{:.4g}", w.optimizer_s * 1e3) +
                  " ms of the step outside the layers as the optimizer step";
  }

  const int profiled_batch = profile.metadata.count("batch_per_gpu") ? w.batch_per_gpu : 0;
  w.batch_per_gpu = s.model.batch_per_gpu;
  if (profiled_batch == 0) {
    out.source += "; batch not recorded, taken as " + std::to_string(w.batch_per_gpu);
  } else if (profiled_batch != w.batch_per_gpu) {
    const double factor = static_cast<double>(w.batch_per_gpu) / profiled_batch;
    for (Layer& layer : w.layers) {
      layer.forward_s *= factor;
      layer.backward_s *= factor;
    }
    out.source += "; layers scaled x" + fmt::format("{:.4g}", factor) + " from batch " +
                  std::to_string(profiled_batch);
  }

  if (!profile.metadata.count("step_s")) {
    ComputeModelParams optimizer = params;
    optimizer.optimizer = s.model.optimizer;
    w.optimizer_s = optimizer_step_s(w, find_gpu(s.compute.gpu), optimizer);
    out.source += "; " + s.model.optimizer + " step from the compute model";
  }
  return out;
}

}  // namespace scalecast
