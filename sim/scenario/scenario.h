// A what-if scenario file (YAML): model, GPU, cluster, strategy settings, methods and GPU counts.
// Loading validates every key strictly; an error names file:line, the key and what was expected.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "sim/types/checkpointing.h"
#include "sim/types/cluster.h"
#include "sim/types/nccl_settings.h"
#include "sim/catalogs/gpu_catalog.h"
#include "sim/catalogs/mechanisms.h"
#include "sim/io/scenario_override.h"
#include "sim/scenario/search_space.h"
#include "sim/types/strategy.h"
#include "sim/zoo/zoo.h"
#include "sim/io/input_error.h"

namespace scalecast {

// The values model.memory_format and model.kernels take (the validation tables' columns too).
inline const std::vector<std::string> kMemoryFormats = {"channels_first", "channels_last"};
inline const std::vector<std::string> kKernelKinds = {"eager", "fused"};
// The values model.loss takes: how the cross-entropy loss over the logits runs.
inline const std::vector<std::string> kLossKinds = {"eager", "fp32", "fused"};
// How a half-width run holds its weights (ModelSettings::mixed_precision).
inline const std::vector<std::string> kMixedPrecisionModes = {"half", "autocast"};
// The values model.attention_kernel takes: which generation of fused attention kernel runs
// (sim/compute/compute_model.h, AttentionKernel).
inline const std::vector<std::string> kAttentionKernels = {"flash2", "flash1", "flash3"};

struct ModelSettings {
  std::string name;             // zoo model (or the profile's model name)
  std::string profile;          // profile CSV path, resolved against the scenario's folder
  int batch_per_gpu = 1;        // the micro-batch: what one forward and backward pass takes
  int accumulation_steps = 1;   // micro-batches per optimizer step (gradient accumulation)
  zoo::ModelOptions options;    // seq_len, vocab_size, image_size, bytes per gradient element
  Precision precision = Precision::fp32;
  std::string optimizer = "sgd";  // sgd (momentum) or adam: memory traffic of the update
  // How fp16 is run ("half": the model in fp16 with fp32 master weights, apex O2 / model.half();
  // "autocast": torch.cuda.amp, fp32 weights and fp16 copies, whose casts the compute model
  // times; docs/MODEL.md, "Memory per GPU"), how attention runs ("eager": scores and
  // probabilities kept; "fused": flash / SDPA kernels keep only the output and its log-sum-exp),
  // and activation checkpointing (none; full: each transformer block, or every N-th; selective:
  // each block's attention core; selective_op: torchtitan's per-op policy;
  // sim/types/checkpointing.h).
  std::string mixed_precision = "half";
  std::string attention = "eager";
  // Compute: the fused attention kernel's generation ("flash2": FlashAttention-2, PyTorch SDPA's
  // flash backend from 2.2; "flash1": FlashAttention 1, its 2022 Triton port, SDPA in 2.0-2.1;
  // "flash3": FlashAttention-3 or cuDNN's fused attention, Transformer Engine's, on Hopper).
  std::string attention_kernel = "flash2";
  Checkpointing activation_checkpointing = Checkpointing::none;
  int checkpoint_every = 1;  // full: every N-th block (model.activation_checkpointing: every-N)
  // Compute: how a CNN's activations are laid out ("channels_first": NCHW, PyTorch's default;
  // "channels_last": NHWC, as tensor cores take them).
  std::string memory_format = "channels_first";
  // Compute: RMSNorm and rotary embeddings as PyTorch modules written op by op, and a CNN's
  // BatchNorm, ReLU and residual add as PyTorch's eager kernels ("eager": the reference Llama
  // code, Hugging Face, torchtitan, FMS and torchvision by default), or one kernel each and the
  // ReLU and add folded into the BatchNorm ("fused": Transformer Engine, Megatron-Core, Apex,
  // Liger, torch.compile, XLA).
  std::string kernels = "eager";
  // Compute and memory: the loss over every token's logits. "eager": F.cross_entropy on the
  // logits as they come (fp32 under autocast, which upcasts it, and in fp32 runs; a half model's
  // at its width); "fp32": on an fp32 copy of them (logits.float(), as torchtitan, Hugging Face's
  // causal LMs and DeepLearningExamples' BERT criterion write it); "fused": one fused kernel each
  // way (flash-attn's cross-entropy, llm-foundry's default; torch.compile, torchtitan's with
  // training.compile from 2025-04-02; Liger), the logits' gradient at their own width.
  std::string loss = "eager";
  // Communication and memory: the width gradients are reduced at, "" their own (the model's width,
  // or fp32 under autocast) or "fp32" (FSDP's MixedPrecision reduce_dtype float32 over half-width
  // parameters: torchtitan's only choice, Composer's DEFAULT from 0.16.4): gradient messages of 4
  // bytes a parameter, units gathered at the half width, one cast of each unit's gradient.
  std::string reduce_precision;
  // Compute: the catalog's sequence-length histogram the micro-batches are drawn from, each batch
  // padded to its longest sequence ("": every sequence seq_len tokens long, as fixed-length or
  // packed data runs), and the bin of lengths a batch is drawn from, in tokens (LDDL's sequence
  // binning, --bin-size; 0: one bin, the whole set); sim/compute/padded_lengths.h.
  std::string sequence_lengths;
  int sequence_bin = 0;
};

struct ComputeSettings {
  std::string gpu;                    // catalog key
  double single_gpu_throughput = 0;   // samples/s measured on one GPU (0: the compute model alone)
  double compute_efficiency = 0;      // share of peak FLOP/s reached (0: model default)
  double memory_efficiency = 0;       // share of memory bandwidth reached (0: model default)
};

// Settings applied on top of each method's preset; an unset field keeps the preset's value.
struct StrategyOverrides {
  std::string allreduce;              // "" or ring|tree|halving-doubling|hierarchical|auto
  std::string library;                // "" (the preset's) or nccl|gloo
  double bucket_bytes = 0;
  double first_bucket_bytes = 0;
  double cycle_s = 0;
  double partition_bytes = 0;
  double credit_bytes = 0;
  double call_overhead_s = -1;        // -1: preset's value
  collectives::nccl::NcclSettings nccl;  // NCCL's environment (nccl_algo, nccl_proto, ...)
  int tensor_parallel = 1;            // GPUs of a node that split each layer (Megatron-LM)
  bool sequence_parallel = false;
};

struct Scenario {
  std::string path;                   // file it was read from
  std::string name;
  std::string description;
  std::vector<std::string> assumptions;  // what the file states without a source
  ModelSettings model;
  ComputeSettings compute;
  Cluster cluster;                    // nodes is set per run from the GPU count
  StrategyOverrides strategy;
  std::vector<std::string> methods;   // preset names
  std::vector<int> gpus;              // GPU counts to predict
  Prices prices;                      // for recommend's costs (prices.given: false when none)
  SearchSpace search;                 // what recommend searches (search.given: false when none)
  int iterations = 5;                 // iterations of a trace, timeline or schedule file; a row
                                      // needs two (steady_state.h)
  std::vector<Mechanism> switched_off;  // mechanisms left out of the model (an ablation)
};

// Bytes of one gradient element (zoo::ModelOptions::bytes_per_element): 2 where the model itself
// is held at half width (model.mixed_precision half: apex O2, model.half(), FSDP's param_dtype),
// else 4: torch.autocast and TensorFlow's AMP keep fp32 weights, so the gradients DDP and Horovod
// reduce are fp32 too (unless a communication hook or compression casts them, which is not
// expressed); 4 as well where half-width parameters' gradients are reduced in fp32
// (model.reduce_precision: fp32, FSDP's reduce_dtype).
int gradient_bytes(Precision precision, const std::string& mixed_precision, const std::string& reduce_precision);

// Reads and validates a scenario. `overrides` are "key.path=value" strings (--set), applied to
// the YAML before validation; an error in one names "--set" instead of a line.
Scenario load_scenario(const std::string& path, const std::vector<std::string>& overrides = {});
Scenario load_scenario(const std::string& path, const ScenarioOverrides& overrides);
// Same, from text (for tests); `path` names it in errors.
Scenario parse_scenario(const std::string& text, const std::string& path,
                        const std::vector<std::string>& overrides = {});
Scenario parse_scenario(const std::string& text, const std::string& path, const ScenarioOverrides& overrides);

// A built cluster (a schedule's) under values set from outside it, as a calibrated cluster file
// sets them: only how fast and how late data moves (cluster.network's transport figures,
// cluster.fabric's rates and latency, cluster.parameter_server.bandwidth). A key that would change
// what was built (GPU counts, the NIC, the transport, ...) throws an InputError naming its
// origin; `file` names the values' source in other errors.
Cluster with_transport_values(Cluster cluster, const ScenarioOverrides& overrides, const std::string& file);

}  // namespace scalecast
