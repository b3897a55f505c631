// The memory estimate: bytes per parameter by precision and optimizer (ZeRO's accounting of
// mixed-precision training, or autocast's fp32 weights and fp16 copies), the tensors autograd
// keeps (sim/memory/activation_memory.cpp), workspaces, the CUDA context and the allocator's reserve,
// with an interval, against the catalog's memory.
#include "sim/memory/memory_fit.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "sim/memory/activation_memory.h"
#include "sim/compute/compute_model.h"
#include "sim/catalogs/gpu_catalog.h"
#include "sim/schedules/sharding/tensor_parallel.h"
#include "sim/types/wrap_units.h"
#include "sim/io/units.h"
#include "sim/zoo/zoo.h"

namespace scalecast {
namespace {

// cuBLAS: PyTorch's default workspace per handle, CUBLAS_WORKSPACE_CONFIG ":4096:8" (8 x 4 MiB,
// the size chosen for sm90; older GPUs less), plus cuBLASLt's. cuDNN: convolutions under
// cudnn.benchmark take the fastest algorithm whose workspace the allocator can give; the band
// (0 to 1 GiB, central 256 MiB) is an assumption, not a measurement.
constexpr double kCublasWorkspace = 32 * units::kMiB;
constexpr double kCudnnWorkspace = 256 * units::kMiB;
constexpr double kCudnnWorkspaceHigh = 1024 * units::kMiB;

bool autocast(const ModelSettings& m) {
  return half_width(m.precision) && m.mixed_precision == "autocast";
}

// Optimizer state per parameter, in fp32: SGD's momentum (4 B) or Adam's two moments (8 B), and
// the fp32 master copy of the weights that fp16 ("half") training updates (4 B).
double optimizer_bytes_per_parameter(const ModelSettings& model) {
  const double state = model.optimizer == "adam" ? 8 : 4;
  return state + (half_width(model.precision) && !autocast(model) ? 4 : 0);
}

double matmul_parameters(const Workload& w) {
  double n = 0;
  for (const Layer& l : w.layers)
    if (l.kind == "conv" || l.kind == "linear") n += static_cast<double>(l.parameters());
  return n;
}

bool has_convolutions(const Workload& w) {
  return std::any_of(w.layers.begin(), w.layers.end(), [](const Layer& l) { return l.kind == "conv"; });
}

bool has_attention(const Workload& w) {
  return std::any_of(w.layers.begin(), w.layers.end(),
                     [](const Layer& l) { return l.kind == "attention"; });
}

std::string gib(double bytes) { return units::format_memory(bytes); }

// Sharded state: weights, gradients and optimizer state as one GPU's shard, and what it holds
// whole at the peak. ZeRO's accounting (Rajbhandari et al., SC'20, section 5): optimizer state
// 1/N from ZeRO-1, gradients from ZeRO-2, parameters from ZeRO-3. Whole at the peak under ZeRO-3
// and FULL_SHARD: the units being gathered at once (FSDP's limit_all_gathers: two) and the
// gradients of the unit in its backward; under SHARD_GRAD_OP every unit's parameters from its
// forward to its backward; under ZeRO-1 and -2, whole parameters and, for ZeRO-2, the bucket the
// gradients are reduced from.
void shard(MemoryFit& fit, const Workload& w, const StateSharding& sh) {
  // Tensor parallelism first: each GPU of the group holds 1/t of the parameters (and their
  // state) and its share of the activations (sim/schedules/sharding/tensor_parallel.h).
  const double t = std::max(1, sh.tensor_parallel);
  fit.tensor_parallel = sh.tensor_parallel;
  if (t > 1) {
    for (double* part : {&fit.weights_bytes, &fit.gradients_bytes, &fit.optimizer_bytes, &fit.weight_copies_bytes})
      *part /= t;
    const double share = tensor_parallel_activation_share(sh.tensor_parallel, sh.sequence_parallel);
    fit.activations_bytes *= share;
    fit.temporaries_bytes *= share;
  }
  fit.shard_gpus = sh.sharding == Sharding::none ? 1 : std::max(1, sh.gpus);
  if (fit.shard_gpus <= 1) return;
  const double n = fit.shard_gpus;
  const double parameters = static_cast<double>(w.parameters()) / t;
  const double element = parameters > 0 ? fit.weights_bytes / parameters : 0;
  fit.optimizer_bytes /= n;
  if (sh.sharding == Sharding::optimizer) return;
  const double gradients = fit.gradients_bytes;
  fit.gradients_bytes /= n;
  if (sh.sharding == Sharding::gradients) {
    fit.gathered_bytes = std::min(gradients, sh.bucket_bytes);
    return;
  }
  const std::vector<WrapUnit> units = wrap_units(w);
  double largest = 0, blocks = 0, root = 0, largest_grads = 0;
  for (const WrapUnit& u : units) {
    largest = std::max(largest, u.parameters / t);
    largest_grads = std::max(largest_grads, u.grad_bytes / t);
    (u.root ? root : blocks) += u.parameters / t;
  }
  fit.weights_bytes /= n;
  // The root unit stays gathered from the forward to the backward in either mode.
  const double held = sh.reshard_after_forward ? std::max(1, sh.gathers_in_flight) * largest : blocks;
  fit.gathered_bytes = (root + held) * element + largest_grads;
  // Autocast's cast of a gathered weight lives while its unit runs, not for the whole pass.
  if (fit.weight_copies_bytes > 0) fit.weight_copies_bytes = std::min(fit.weight_copies_bytes, 2 * largest);
}

// "an a100", "a v100-sxm2".
std::string a_gpu(const std::string& gpu) {
  return (!gpu.empty() && std::string("aeiou").find(gpu[0]) != std::string::npos ? "an " : "a ") + gpu;
}

}  // namespace

StateSharding state_sharding(const Strategy& s, const Cluster& sized) {
  const int t = std::max(1, s.tensor_parallel);
  StateSharding out;
  out.sharding = s.sharding;
  out.gpus = shard_group_gpus(s, sized.gpus() / t, sized.gpus_per_node / t);
  out.reshard_after_forward = s.reshard_after_forward;
  out.gathers_in_flight = s.gathers_in_flight;
  out.bucket_bytes = s.bucket_bytes;
  out.tensor_parallel = t;
  out.sequence_parallel = s.sequence_parallel;
  return out;
}

double MemoryFit::allocated_bytes() const {
  return weights_bytes + gradients_bytes + optimizer_bytes + weight_copies_bytes + gathered_bytes +
         activations_bytes + temporaries_bytes + workspace_bytes;
}

double MemoryFit::needed_bytes() const {
  return allocated_bytes() * (1 + bands.cache_central) + bands.context_central;
}

double MemoryFit::low_bytes() const {
  const double fixed = weights_bytes + gradients_bytes + optimizer_bytes + weight_copies_bytes + gathered_bytes;
  return fixed + (activations_bytes + temporaries_bytes) * (1 - bands.activation_share) +
         kCublasWorkspace + bands.context_low;
}

double MemoryFit::high_bytes() const {
  const double fixed = weights_bytes + gradients_bytes + optimizer_bytes + weight_copies_bytes + gathered_bytes;
  const double workspace = kCublasWorkspace + (convolutions ? kCudnnWorkspaceHigh : 0);
  return (fixed + (activations_bytes + temporaries_bytes) * (1 + bands.activation_share) + workspace) *
             (1 + bands.cache_high) +
         bands.context_high;
}

std::vector<std::pair<std::string, double>> MemoryFit::parts() const {
  std::vector<std::pair<std::string, double>> list = {{"weights", weights_bytes},
                                                      {"gradients", gradients_bytes},
                                                      {"optimizer state", optimizer_bytes}};
  if (weight_copies_bytes > 0) list.emplace_back("fp16 weight copies", weight_copies_bytes);
  if (gathered_bytes > 0) list.emplace_back("gathered parameters and gradients", gathered_bytes);
  if (activations_known) {
    list.emplace_back("activations", activations_bytes);
    list.emplace_back("backward temporaries", temporaries_bytes);
  }
  list.emplace_back("workspaces", workspace_bytes);
  list.emplace_back("CUDA context", bands.context_central);
  list.emplace_back("allocator cache", allocated_bytes() * bands.cache_central);
  std::stable_sort(list.begin(), list.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  return list;
}

MemoryFit memory_fit(const Scenario& scenario, const Workload& workload, const StateSharding& sharding) {
  const ModelSettings& model = scenario.model;
  const double parameters = static_cast<double>(workload.parameters());
  const bool amp = autocast(model);
  MemoryFit fit;
  fit.gpu = scenario.compute.gpu;
  fit.batch = model.batch_per_gpu;
  fit.available_bytes = find_gpu(scenario.compute.gpu).memory_bytes;
  // Autocast keeps the model and its gradients in fp32 and caches one fp16 cast of each conv and
  // linear weight per forward pass (torch.autocast's weight cache); "half" is ZeRO's accounting.
  const double element = half_width(model.precision) && !amp ? 2 : 4;
  fit.weights_bytes = parameters * element;
  // Gradients reduced in fp32 (model.reduce_precision) are still held as ZeRO's accounting holds
  // a half model's: FSDP's fp32 shards of parameters and gradients and Adam's moments come to the
  // same 16 bytes a parameter as 2 + 2 + 12.
  fit.gradients_bytes = amp                                    ? parameters * 4
                        : model.reduce_precision == "fp32" ? parameters * element
                                                           : static_cast<double>(workload.grad_bytes());
  fit.optimizer_bytes = parameters * optimizer_bytes_per_parameter(model);
  // A profile has times, not shapes: its activations come from the zoo model it names, if any.
  const Workload* shapes = &workload;
  Workload zoo_model;
  if (!model.profile.empty()) {
    fit.activations_known = zoo::has_model(model.name);
    if (fit.activations_known) zoo_model = zoo::build_model(model.name, model.options);
    shapes = &zoo_model;
  }
  if (amp) fit.weight_copies_bytes = matmul_parameters(*shapes) * 2;
  fit.convolutions = has_convolutions(*shapes);
  fit.workspace_bytes = kCublasWorkspace + (fit.convolutions ? kCudnnWorkspace : 0);
  if (fit.activations_known) {
    const ActivationMemory a = activation_memory(*shapes, model);
    fit.activations_bytes = a.saved_bytes * model.batch_per_gpu;
    fit.temporaries_bytes = a.transient_bytes * model.batch_per_gpu;
  }
  return sharded_fit(std::move(fit), workload, sharding);
}

MemoryFit sharded_fit(MemoryFit whole, const Workload& workload, const StateSharding& sharding) {
  shard(whole, workload, sharding);
  return whole;
}

std::string memory_summary(const MemoryFit& fit) {
  std::string text = units::format_memory(fit.needed_bytes()) + " (" + units::format_memory(fit.low_bytes()) +
                     " to " + units::format_memory(fit.high_bytes()) + ") of " +
                     units::format_memory(fit.available_bytes) + " per GPU (";
  bool first = true;
  for (const auto& [name, bytes] : fit.parts()) {
    text += (first ? "" : ", ") + name + " " + units::format_memory(bytes);
    first = false;
  }
  if (fit.tensor_parallel > 1) text += "; layers split " + std::to_string(fit.tensor_parallel) + " ways";
  if (fit.shard_gpus > 1) text += "; model state in shards of 1/" + std::to_string(fit.shard_gpus);
  if (!fit.activations_known) text += "; activations not counted: a profile of a model outside the zoo";
  return text + ")";
}

std::string memory_warning(const MemoryFit& fit) {
  const double need = fit.needed_bytes();
  if (need > fit.available_bytes)
    return "the estimate " + gib(need) + " is " + gib(need - fit.available_bytes) + " over the " +
           gib(fit.available_bytes) + " of " + a_gpu(fit.gpu) + ", within its interval (low end " +
           gib(fit.low_bytes()) + "): it may run out of memory";
  if (fit.high_bytes() > fit.available_bytes)
    return "fits by " + gib(fit.available_bytes - need) + "; the interval's high end " +
           gib(fit.high_bytes()) + " is over the " + gib(fit.available_bytes) + " of " + a_gpu(fit.gpu);
  return {};
}

std::string memory_knobs(const Scenario& scenario, const Workload& workload, const StateSharding& sharding) {
  const MemoryFit fit = memory_fit(scenario, workload, sharding);
  std::vector<std::string> knobs;
  // The central estimate is linear in the batch: find the largest that fits.
  const double per_sample = (fit.activations_bytes + fit.temporaries_bytes) / std::max(1, fit.batch);
  const double room = (fit.available_bytes - fit.bands.context_central) / (1 + fit.bands.cache_central) -
                      (fit.allocated_bytes() - fit.activations_bytes - fit.temporaries_bytes);
  if (per_sample > 0) {
    const double batch = std::floor(room / per_sample);
    if (batch >= 1 && batch < fit.batch)
      knobs.push_back("model.batch_per_gpu=" + fmt::format("{:.0f}", batch));
  }
  // A knob that suffices, with its estimate and, where given, what it costs.
  const auto try_knob = [&](const std::string& text, auto change, const std::string& cost = "") {
    Scenario s = scenario;
    change(s.model);
    Workload w = workload;
    if (s.model.profile.empty() && zoo::has_model(s.model.name)) w = zoo::build_model(s.model.name, s.model.options);
    const MemoryFit other = memory_fit(s, w, sharding);
    const bool fits = other.needed_bytes() <= other.available_bytes;
    if (fits) knobs.push_back(text + " (" + gib(other.needed_bytes()) + cost + ")");
    return fits;
  };
  if (!half_width(scenario.model.precision))
    try_knob("model.precision=fp16", [](ModelSettings& m) {
      m.precision = Precision::fp16;
      m.options.bytes_per_element = gradient_bytes(m.precision, m.mixed_precision, m.reduce_precision);
    });
  const bool attention = has_attention(workload) || (!scenario.model.profile.empty() && zoo::has_model(scenario.model.name) &&
                                                     has_attention(zoo::build_model(scenario.model.name, scenario.model.options)));
  if (attention && scenario.model.attention != "fused")
    try_knob("model.attention=fused", [](ModelSettings& m) { m.attention = "fused"; });
  // Checkpointing modes in the order of the forward they run again (Megatron's attention core,
  // torchtitan's per-op policy, whole blocks) until one fits, each with the forward seconds it
  // adds per iteration (the workload's forward times; sim/compute/compute_model.h).
  const ModelSettings& model = scenario.model;
  const bool fused = model.attention == "fused";
  const Recompute now{model.activation_checkpointing, model.checkpoint_every, fused};
  const auto checkpointing = [&](Checkpointing mode, const std::string& name) {
    const double added =
        (recompute_s(workload, {mode, 1, fused}) - recompute_s(workload, now)) * workload.accumulation_steps;
    const std::string cost = fmt::format("; +{} of compute per iteration, +{:.1f}%, the forward run again",
                                         units::format_seconds(added), 100 * added / workload.compute_s());
    return try_knob("model.activation_checkpointing=" + name,
                    [mode](ModelSettings& m) {
                      m.activation_checkpointing = mode;
                      m.checkpoint_every = 1;
                    },
                    added > 0 && workload.compute_s() > 0 ? cost : "");
  };
  const auto rank = [](Checkpointing mode, int every) {
    if (mode == Checkpointing::full) return every > 1 ? 2 : 3;
    return mode == Checkpointing::selective_op ? 2 : mode == Checkpointing::selective ? 1 : 0;
  };
  const std::pair<Checkpointing, const char*> modes[] = {
      {Checkpointing::selective, "selective"}, {Checkpointing::selective_op, "selective-op"}, {Checkpointing::full, "full"}};
  if (attention)
    for (const auto& [mode, name] : modes)
      if (rank(mode, 1) > rank(now.mode, now.every) && checkpointing(mode, name)) break;
  // Sharding the state over the run's GPUs (FSDP FULL_SHARD), alone or with the knobs above.
  if (sharding.gpus > 1 && sharding.sharding != Sharding::parameters) {
    StateSharding full = sharding;
    full.sharding = Sharding::parameters;
    full.reshard_after_forward = true;
    const std::string fsdp = "methods: [fsdp] on " + std::to_string(sharding.gpus) + " GPUs";
    const MemoryFit other = memory_fit(scenario, workload, full);
    if (other.needed_bytes() <= other.available_bytes)
      knobs.push_back(fsdp + " (" + gib(other.needed_bytes()) + ")");
    else if (knobs.empty()) {
      const std::string with = memory_knobs(scenario, workload, full);
      if (!with.starts_with("no batch")) knobs.push_back(fsdp + " with " + with);
    }
  }
  if (knobs.empty())
    return "no batch of at least 1 fits: a GPU with more memory, or sharding the model state over more GPUs "
           "(methods: [fsdp])";
  std::string text;
  for (const auto& k : knobs) text += (text.empty() ? "" : ", or ") + k;
  return text;
}

}  // namespace scalecast
