// Builds the per-GPU workload of a scenario from the zoo and compute model, or from a profile.
// A measured single-GPU throughput rescales either source to the measured iteration time.
#include "sim/workload_builder.h"

#include <cstdio>

#include "sim/compute_model.h"
#include "sim/profile_csv.h"
#include "sim/zoo/zoo.h"

namespace scalecast {

BuiltWorkload build_workload(const Scenario& s) {
  BuiltWorkload out;
  if (!s.model.profile.empty()) {
    Profile profile = read_profile_csv(s.model.profile);
    out.workload = std::move(profile.workload);
    if (out.workload.model.empty()) out.workload.model = s.model.name;
    if (out.workload.batch_per_gpu != s.model.batch_per_gpu && profile.metadata.count("batch_per_gpu"))
      throw ProfileError(s.model.profile + ": batch_per_gpu: expected " +
                         std::to_string(s.model.batch_per_gpu) + " as in " + s.path + ", got '" +
                         profile.metadata["batch_per_gpu"] + "'");
    out.workload.batch_per_gpu = s.model.batch_per_gpu;
    out.source = "profile " + s.model.profile;
    if (!s.model.name.empty() && zoo::has_model(s.model.name))
      out.workload.sample_unit = zoo::build_model(s.model.name, s.model.options).sample_unit;
  } else {
    out.workload = zoo::build_model(s.model.name, s.model.options);
    out.workload.batch_per_gpu = s.model.batch_per_gpu;
    ComputeModelParams params;
    if (s.compute.compute_efficiency > 0) params.compute_efficiency = s.compute.compute_efficiency;
    if (s.compute.memory_efficiency > 0) params.memory_efficiency = s.compute.memory_efficiency;
    params.precision = s.model.precision;
    params.optimizer = s.model.optimizer;
    apply_roofline(out.workload, find_gpu(s.compute.gpu), params);
    out.source = "roofline on " + s.compute.gpu;
  }
  if (s.compute.single_gpu_throughput > 0) {
    out.scale_factor = scale_to_throughput(out.workload, s.compute.single_gpu_throughput);
    char buf[96];
    std::snprintf(buf, sizeof buf, ", scaled x%.3f to %.4g samples/s", out.scale_factor,
                  s.compute.single_gpu_throughput);
    out.source += buf;
  }
  return out;
}

}  // namespace scalecast
