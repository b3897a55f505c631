// Turns a profile into the scenario's workload: refuses a precision or optimizer other than the
// scenario's, scales the layers to the scenario's GPU and batch and takes the optimizer step from
// the profile's step time or the compute model (docs/MODEL.md, "Profiles").
#include "sim/scenario/profile_workload.h"

#include <filesystem>
#include <fmt/format.h>

#include "sim/catalogs/gpu_catalog.h"
#include "sim/compute/profile_gpu_scaling.h"
#include "sim/formats/profile_csv.h"
#include "sim/io/input_error.h"
#include "sim/zoo/zoo.h"

namespace scalecast {
namespace {

// A recorded value that must equal the scenario's `key`; measured times are not converted.
void require_same(const Profile& profile, const std::string& key, const std::string& wanted,
                  const std::string& scenario_key, const std::string& scenario_path) {
  const auto it = profile.metadata.find(key);
  if (it == profile.metadata.end() || it->second == wanted) return;
  throw InputError(InputKind::file, profile.where(key) + ": expected " + wanted + " as " + scenario_key + " in " +
                     scenario_path + ", got '" + it->second +
                     "' (measured times are not converted: profile with " + wanted + ", or set " +
                     scenario_key + ": " + it->second + ")");
}

// The catalog GPU the profile was measured on when it is not the scenario's (nullptr when it is,
// or when the device is unrecorded or outside the catalog: `note` says so, and the times are taken
// as measured on the scenario's GPU). Moving to another GPU needs the zoo model's layer shapes and
// the scenario's precision on the measured GPU; without them it is refused.
const GpuSpec* other_gpu(const Profile& profile, const Scenario& s, std::string& note) {
  const auto it = profile.metadata.find("gpu");
  if (it == profile.metadata.end()) {
    note = "; measured on an unrecorded device";
    return nullptr;
  }
  const GpuSpec* measured = gpu_for_device_name(it->second);
  if (measured == nullptr) {
    note = "; measured on '" + it->second + "' (not in the catalog), taken as a " + s.compute.gpu;
    return nullptr;
  }
  if (measured->name == s.compute.gpu) return nullptr;
  if (!zoo::has_model(s.model.name))
    throw InputError(InputKind::file, profile.where("gpu") + ": expected a " + s.compute.gpu + " as gpu.type in " + s.path +
                       ", got '" + it->second + "' (" + measured->name +
                       "; scaling to another GPU needs the layers' shapes: set model.name to the zoo model "
                       "profiled, profile on a " + s.compute.gpu + ", or set gpu.type: " + measured->name + ")");
  if (!measured->supports(s.model.precision))
    throw InputError(InputKind::file, profile.where("gpu") + ": expected a GPU that computes in " + to_string(s.model.precision) +
                       " (model.precision in " + s.path + "), got '" + it->second + "' (" + measured->name + ")");
  return measured;
}

// The step time outside the layers (w.optimizer_s, measured) on the target GPU: the optimizer step
// moves by the compute model's time for it on each GPU; the rest (loss, framework, the host's
// launches) stays as measured. A time below the modelled step scales by the step's ratio.
double step_outside_layers_on(const Workload& w, const GpuSpec& measured, const GpuSpec& target,
                              const ComputeModelParams& params) {
  const double from = optimizer_step_s(w, measured, params);
  const double to = optimizer_step_s(w, target, params);
  return w.optimizer_s >= from ? w.optimizer_s - from + to : w.optimizer_s * to / from;
}

}  // namespace

BuiltWorkload profile_workload(const Scenario& s, const ComputeModelParams& params) {
  Profile profile = read_profile_csv(s.model.profile, s.model.options.bytes_per_element);
  require_same(profile, "precision", to_string(s.model.precision), "model.precision", s.path);
  require_same(profile, "optimizer", s.model.optimizer, "model.optimizer", s.path);
  BuiltWorkload out;
  std::string device_note;
  const GpuSpec* measured = other_gpu(profile, s, device_note);
  out.source = "profile " + s.model.profile + device_note;
  Workload& w = out.workload;
  w = std::move(profile.workload);
  if (w.model.empty())
    w.model = s.model.name.empty() ? std::filesystem::path(s.model.profile).stem().string()
                                   : s.model.name;
  Workload zoo_model;
  if (zoo::has_model(s.model.name)) {
    zoo_model = zoo::build_model(s.model.name, s.model.options);
    w.sample_unit = zoo_model.sample_unit;
  }

  const double layers_s = w.forward_s() + w.backward_s();
  if (profile.metadata.count("step_s")) {
    const double step_s = std::stod(profile.metadata["step_s"]);
    if (step_s < layers_s)
      throw InputError(InputKind::file, profile.where("step_s") + ": expected at least the layers' forward + " +
                         "backward (" + fmt::format("{:.9f}", layers_s) + " s), got '" +
                         profile.metadata["step_s"] +
                         "' (remove the line to take the optimizer step from the compute model)");
    w.optimizer_s = step_s - layers_s;
    out.source += "; " + fmt::format("{:.4g}", w.optimizer_s * 1e3) +
                  " ms of the step outside the layers as the optimizer step";
  }

  const int profiled_batch = profile.metadata.count("batch_per_gpu") ? w.batch_per_gpu : 0;
  if (measured != nullptr) {
    zoo_model.batch_per_gpu = profiled_batch > 0 ? profiled_batch : s.model.batch_per_gpu;
    const GpuScaling scaled = scale_profile_layers(w, zoo_model, *measured, find_gpu(s.compute.gpu), params);
    out.source += "; measured on " + profile.metadata["gpu"] + ", scaled to " + s.compute.gpu +
                  " by layer kind (" + std::to_string(scaled.matched) + " layers matched";
    if (scaled.matched < scaled.timed)
      out.source += fmt::format(", {} by the whole model's x{:.3g}", scaled.timed - scaled.matched, scaled.model_ratio);
    out.source += ")";
    if (profile.metadata.count("step_s")) {
      w.optimizer_s = step_outside_layers_on(w, *measured, find_gpu(s.compute.gpu), params);
      out.source += fmt::format(", the step outside them {:.4g} ms ({} step by the compute model, the rest as "
                                "measured)", w.optimizer_s * 1e3, s.model.optimizer);
    }
  }
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
