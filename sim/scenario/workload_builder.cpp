// Builds the per-GPU workload of a scenario from the zoo and compute model, or from a profile
// (sim/scenario/profile_workload). A measured single-GPU throughput rescales either to its iteration time.
#include "sim/scenario/workload_builder.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <fmt/format.h>
#include <stdexcept>

#include "sim/catalogs/sequence_lengths.h"
#include "sim/compute/compute_model.h"
#include "sim/compute/padded_lengths.h"
#include "sim/io/input_error.h"
#include "sim/scenario/profile_workload.h"
#include "sim/zoo/zoo.h"

namespace scalecast {
namespace {

// The zoo model at the scenario's sizes, timed by the compute model. With a sequence-length
// histogram, each layer's times are their mean over the lengths the micro-batches are padded to
// (sim/compute/padded_lengths.h); everything else (parameters, activations) stays at seq_len, the
// longest batch.
Workload zoo_workload(const Scenario& s, const ComputeModelParams& params) {
  const GpuSpec& gpu = find_gpu(s.compute.gpu);
  auto timed = [&](const zoo::ModelOptions& options) {
    Workload w = zoo::build_model(s.model.name, options);
    w.batch_per_gpu = s.model.batch_per_gpu;
    apply_compute_model(w, gpu, params);
    return w;
  };
  if (s.model.sequence_lengths.empty()) return timed(s.model.options);
  Workload workload = zoo::build_model(s.model.name, s.model.options);
  workload.batch_per_gpu = s.model.batch_per_gpu;
  const auto lengths = padded_lengths(find_length_histogram(s.model.sequence_lengths), s.model.batch_per_gpu,
                                      s.model.sequence_bin);
  for (const WeightedLength& padded : lengths) {
    zoo::ModelOptions options = s.model.options;
    options.seq_len = padded.length;
    // BERT masks a share of each sequence's tokens (15%: max_predictions_per_seq of seq_len), so a
    // shorter batch has its masked-LM positions in proportion.
    if (options.shape.mlm_positions > 0)
      options.shape.mlm_positions = static_cast<int>(std::max<int64_t>(
          1, static_cast<int64_t>(std::ceil(static_cast<double>(s.model.options.shape.mlm_positions) *
                                            padded.length / s.model.options.seq_len))));
    const Workload at = timed(options);
    if (at.layers.size() != workload.layers.size())
      throw std::logic_error(s.model.name + " has another number of layers at sequence length " +
                             std::to_string(padded.length));
    for (size_t i = 0; i < workload.layers.size(); ++i) {
      workload.layers[i].forward_s += padded.weight * at.layers[i].forward_s;
      workload.layers[i].backward_s += padded.weight * at.layers[i].backward_s;
    }
    workload.optimizer_s = at.optimizer_s;  // the parameters' step: the same at every length
  }
  return workload;
}

}  // namespace

BuiltWorkload build_workload(const Scenario& s) {
  if (s.model.name.empty() && s.model.profile.empty())
    throw InputError(InputKind::file, s.path + ": model: expected the model to train (this scenario describes a cluster alone: "
                        "scalecast collective runs it), got none");
  BuiltWorkload out;
  ComputeModelParams params;
  if (s.compute.compute_efficiency > 0) params.compute_efficiency = s.compute.compute_efficiency;
  if (s.compute.memory_efficiency > 0) params.memory_efficiency = s.compute.memory_efficiency;
  params.precision = s.model.precision;
  params.optimizer = s.model.optimizer;
  params.fused_attention = s.model.attention == "fused";
  params.attention_kernel = s.model.attention_kernel == "flash1"   ? AttentionKernel::flash1
                            : s.model.attention_kernel == "flash3" ? AttentionKernel::flash3
                                                                   : AttentionKernel::flash2;
  params.autocast = s.model.mixed_precision == "autocast";
  params.channels_last = s.model.memory_format == "channels_last";
  params.eager_modules = s.model.kernels == "eager";
  params.activation_checkpointing = s.model.activation_checkpointing;
  params.checkpoint_every = s.model.checkpoint_every;
  params.fused_loss = s.model.loss == "fused";
  if (!s.model.profile.empty()) {
    out = profile_workload(s, params);
    out.origin = ComputeOrigin::profile;
  } else {
    out.workload = zoo_workload(s, params);
    out.source = "compute model on " + s.compute.gpu;
    if (!s.model.sequence_lengths.empty())
      out.source += fmt::format(", sequences from {} padded to each batch's longest{}", s.model.sequence_lengths,
                                s.model.sequence_bin > 0 ? fmt::format(" in bins of {}", s.model.sequence_bin) : "");
  }
  out.workload.accumulation_steps = s.model.accumulation_steps;
  out.workload.streaming_bandwidth = kernel_rates(find_gpu(s.compute.gpu), params, params.precision).bandwidth;
  // Under autocast the model holds fp32 weights; its products take half-width copies.
  if (params.autocast && half_width(params.precision)) out.workload.parameter_bytes = 4;
  // Gradients reduced in fp32 from half-width parameters: units gathered at the half width.
  if (s.model.reduce_precision == "fp32") out.workload.parameter_bytes = 2;
  if (s.compute.single_gpu_throughput > 0) {
    out.scale_factor = scale_to_throughput(out.workload, s.compute.single_gpu_throughput);
    if (out.origin == ComputeOrigin::model) out.origin = ComputeOrigin::measured_throughput;
    out.source += fmt::format(", scaled x{:.3f} to {:.4g} samples/s", out.scale_factor,
                              s.compute.single_gpu_throughput);
  }
  return out;
}

}  // namespace scalecast
