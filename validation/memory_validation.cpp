// Each published configuration expressed as a scenario's model settings: precision as run
// (autocast or a half model), the optimizer's state count, attention as the implementation runs
// it (flash-attention and MLPerf's fused MHA: fused; Hugging Face and DeepLearningExamples BERT:
// eager), checkpointing as published.
#include "validation/memory_validation.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <regex>
#include <sstream>

#include <fmt/format.h>

#include "sim/io/csv.h"
#include "sim/catalogs/gpu_catalog.h"
#include "sim/io/units.h"
#include "sim/memory/memory_fit.h"
#include "sim/types/cluster.h"
#include "sim/types/strategy.h"
#include "sim/zoo/zoo.h"

namespace scalecast::validation {
namespace {

bool starts_with(const std::string& s, const std::string& head) { return s.rfind(head, 0) == 0; }
bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

// The GPUs a sharded row's state is split over, as its sharding column states them ("FSDP2
// FULL_SHARD over 8 GPUs", "FSDP 8, CP 1"); 0 where it does not say.
int shard_count(const std::string& sharding) {
  static const std::regex over(R"(over ([0-9]+) GPUs)"), fsdp(R"(^FSDP ([0-9]+),)");
  std::smatch m;
  if (std::regex_search(sharding, m, over) || std::regex_search(sharding, m, fsdp)) return std::stoi(m[1].str());
  return 0;
}

// A sharded row's division of the model state: FSDP and FSDP2 (FULL_SHARD) as the fsdp preset
// runs it, optimizer-state sharding (ZeRO-1, MLPerf's DistributedFusedLAMB) as zero1; the reason
// where the row is another kind.
std::string sharding_of(const std::string& sharding, StateSharding& out) {
  const int gpus = shard_count(sharding);
  const bool optimizer = starts_with(sharding, "ZeRO-1") || starts_with(sharding, "optimizer state sharded");
  const bool fsdp = starts_with(sharding, "FSDP") && !contains(sharding, "HYBRID") && !contains(sharding, "SHARD_GRAD_OP");
  if (gpus < 2 || (!optimizer && !fsdp)) return "sharded (" + sharding + "): not a sharding with its GPU count stated";
  Cluster cluster;
  cluster.gpus_per_node = std::min(gpus, 8);
  cluster.nodes = (gpus + cluster.gpus_per_node - 1) / cluster.gpus_per_node;
  out = state_sharding(make_preset(optimizer ? "zero1" : "fsdp"), cluster);
  return {};
}

// Fills `c.fit` from the row, or says why the row cannot be expressed.
void express(const CsvRecord& r, MemoryCase& c) {
  const std::string sharding = r.text("sharding");
  const std::string optimizer = r.text("optimizer");
  StateSharding state;
  if (!starts_with(sharding, "none")) {
    c.reason = sharding_of(sharding, state);
    if (!c.reason.empty()) return;
  }
  if (c.gpu.empty() || !has_gpu(c.gpu)) {
    c.reason = c.gpu.empty() ? "the source does not name the GPU" : "GPU " + c.gpu + " not in the catalog";
    return;
  }
  // llm-foundry's MPT by its shape: a gpt without dropout (MPTConfig's pdrops default to 0) whose
  // head is tied to its embeddings; its ALiBi has no position table, where the zoo's gpt keeps
  // seq_len x hidden of one (0.1% of MPT-7B).
  const bool mpt = starts_with(c.model, "mpt-");
  if (mpt && !r.has_value("layers")) {
    c.reason = "MPT without its shape (layers, hidden, heads, intermediate, vocab)";
    return;
  }
  if (!mpt && !zoo::has_model(c.model)) {
    c.reason = "model " + c.model + " is not in the zoo";
    return;
  }
  if (contains(optimizer, "Adafactor") || contains(optimizer, "8-bit")) {
    c.reason = "optimizer state of " + optimizer.substr(0, optimizer.find(' ')) + " not modelled (Adam's or momentum only)";
    return;
  }
  Scenario s;
  s.compute.gpu = c.gpu;
  ModelSettings& m = s.model;
  m.name = mpt ? "gpt" : c.model;
  m.batch_per_gpu = c.batch;
  if (c.seq_len > 0) m.options.seq_len = c.seq_len;
  if (mpt) {
    zoo::TransformerShape& shape = m.options.shape;
    shape.layers = r.integer("layers", 1, 1 << 12);
    shape.hidden = r.integer("hidden", 1, 1 << 20);
    shape.heads = r.integer("heads", 1, 1 << 12);
    shape.intermediate = r.integer("intermediate", 1, 1 << 22);
    shape.dropout = false;
    m.options.vocab_size = r.integer("vocab", 1, 1 << 24);
  }
  if (!r.text("image_size").empty()) m.options.image_size = r.integer("image_size", 1, 4096);
  const std::string& p = c.precision;
  if (p == "fp32") {
    m.precision = Precision::fp32;
  } else if (p == "tf32") {
    m.precision = Precision::tf32;
  } else if ((p == "amp_fp16" || p == "amp_bf16") && starts_with(sharding, "FSDP")) {
    // FSDP's mixed precision under autocast (Composer's DEFAULT and PURE: param_dtype the half
    // width): fp32 shards, half-width gathered units that autocast need not cast.
    m.precision = p == "amp_bf16" ? Precision::bf16 : Precision::fp16;
    m.mixed_precision = "half";
  } else if (p == "amp_fp16" || p == "amp_bf16") {
    m.precision = Precision::fp16;  // bf16 has fp16's size
    m.mixed_precision = "autocast";
  } else if (p == "fp16_o2" || p == "fp16_half" || p == "fp16" || p == "bf16") {
    m.precision = Precision::fp16;
    m.mixed_precision = "half";
  } else if (p == "bf16_fsdp_mp" || p.ends_with("_linear_bf16") || p.ends_with("wise_bf16")) {
    // FSDP2's MixedPrecisionPolicy: fp32 shards of the parameters, their gradients and Adam's
    // moments (16 B a parameter, as a half model with fp32 master weights keeps), bf16 gathered
    // units and activations. torchao's float8 and MX linears keep bf16 activations too: the
    // sources measure them within 0.3% of bf16's peak (torchao-float8-training-doc rows).
    m.precision = Precision::bf16;
    m.mixed_precision = "half";
  } else {
    c.reason = "precision " + p + " not modelled";
    return;
  }
  // torchtitan (and torchao's runs of it) reduce FSDP2's gradients in fp32 (mixed_precision_reduce
  // float32, its only choice; parallelize_llama.py's MixedPrecisionPolicy since 2024-04).
  if ((starts_with(c.source, "torchtitan") || starts_with(c.source, "torchao")) && half_width(m.precision) &&
      m.mixed_precision == "half")
    m.reduce_precision = "fp32";
  m.options.bytes_per_element = gradient_bytes(m.precision, m.mixed_precision, m.reduce_precision);
  const bool sgd = contains(optimizer, "SGD") || contains(optimizer, "LARS");
  m.optimizer = sgd ? "sgd" : "adam";  // Adam, AdamW, LAMB, RMSprop with momentum: two fp32 states
  // flash-attention's training repo and nanoGPT run flash / SDPA attention, as torchtitan's Llama
  // (F.scaled_dot_product_attention) and torchao's runs of it do; MLPerf's BERT a fused MHA.
  // llm-foundry's MPT runs FlashAttention (attn_impl flash or triton).
  const bool fused = c.source == "flash-attn-training" || c.source == "nanogpt" || starts_with(c.source, "torchtitan") ||
                     starts_with(c.source, "torchao") || (starts_with(c.source, "mlperf") && contains(c.model, "bert")) ||
                     mpt;
  m.attention = fused ? "fused" : "eager";
  // "yes" is HF's gradient_checkpointing (each block), "full" torchtitan's; "selective (op)" and
  // "selective (per-op SAC)" torchtitan's per-op policy; a bare "selective" says neither which
  // kind nor which blocks.
  const std::string checkpointing = r.text("activation_checkpointing");
  if (checkpointing == "selective") {
    c.reason = "selective activation checkpointing of a kind the source does not state";
    return;
  }
  m.activation_checkpointing = starts_with(checkpointing, "yes") || starts_with(checkpointing, "full")
                                   ? Checkpointing::full
                               : contains(checkpointing, "(op)") || contains(checkpointing, "per-op")
                                   ? Checkpointing::selective_op
                                   : Checkpointing::none;
  if (!r.text("loss").empty()) m.loss = r.choice("loss", kLossKinds);
  const Workload w = zoo::build_model(m.name, m.options);
  c.fit = memory_fit(s, w, state);
  // The published memory, where it is stated ("GB" read as the catalog reads it, GiB).
  if (!r.text("gpu_memory_gib").empty())
    c.fit.available_bytes = r.number("gpu_memory_gib", Bound::between(1, 1024)) * units::kGiB;
  c.settings = std::string(m.precision == Precision::fp16 ? m.mixed_precision + " fp16" : p) + ", " + m.optimizer +
               ", " + m.attention + " attention" + (m.activation_checkpointing == Checkpointing::full           ? ", checkpointing"
                : m.activation_checkpointing == Checkpointing::selective_op ? ", per-op checkpointing"
                                                                              : "");
  c.expressible = true;
  if (!r.text("measured_peak_gib").empty()) {
    c.measured_gib = r.number("measured_peak_gib", Bound::between(0, 1024));
    c.peak_measure = r.text("peak_measure");
    // NVML's "used": the context and whatever the allocator reserves; torchtitan's peak reserved
    // leaves the context out.
    // The Hugging Face page measured its own context: 1343 MB ("MB" printed for MiB) used after
    // loading a 1x1 tensor (no lazy module loading then); other sources take the model's.
    if (c.source == "hf-perf-train-gpu-one-2022") c.fit.bands.context_central = 1343 * units::kMiB;
    const double bytes = c.peak_measure == "torch_max_reserved" ? c.fit.needed_bytes() - c.fit.bands.context_central
                                                                : c.fit.needed_bytes();
    c.predicted_gib = bytes / units::kGiB;
  }
}

}  // namespace

int MemoryValidation::expressible() const {
  return static_cast<int>(std::count_if(cases.begin(), cases.end(), [](const auto& c) { return c.expressible; }));
}
int MemoryValidation::central_fit() const {
  return static_cast<int>(
      std::count_if(cases.begin(), cases.end(), [](const auto& c) { return c.expressible && c.central_fits(); }));
}
int MemoryValidation::not_refused() const {
  return static_cast<int>(
      std::count_if(cases.begin(), cases.end(), [](const auto& c) { return c.expressible && c.fit.fits(); }));
}
int MemoryValidation::measured() const {
  return static_cast<int>(
      std::count_if(cases.begin(), cases.end(), [](const auto& c) { return c.expressible && c.measured_gib > 0; }));
}
double MemoryValidation::max_abs_error() const {
  double e = 0;
  for (const auto& c : cases)
    if (c.expressible && c.measured_gib > 0) e = std::max(e, std::abs(c.error()));
  return e;
}
double MemoryValidation::mean_abs_error() const {
  double sum = 0;
  int n = 0;
  for (const auto& c : cases)
    if (c.expressible && c.measured_gib > 0) sum += std::abs(c.error()), ++n;
  return n > 0 ? sum / n : 0;
}

MemoryValidation validate_memory(const std::string& folder) {
  const CsvFile file(folder + "/configurations.csv");
  MemoryValidation v;
  for (const CsvRecord& r : file.records()) {
    MemoryCase c;
    c.line = r.line();
    c.source = r.text("source");
    c.gpu = r.text("gpu");
    c.model = r.text("model");
    c.precision = r.text("precision");
    c.batch = r.integer("batch_per_gpu", 1, 1 << 20);
    c.seq_len = r.text("seq_len").empty() ? 0 : r.integer("seq_len", 1, 1 << 20);
    express(r, c);
    v.cases.push_back(std::move(c));
  }
  return v;
}

void write_memory_summary(std::ostream& out, const MemoryValidation& v) {
  std::map<std::string, int> reasons;
  for (const auto& c : v.cases)
    if (!c.expressible) {
      const std::string& r = c.reason;
      ++reasons[starts_with(r, "sharded")     ? "sharded other than FSDP or ZeRO-1 over a stated GPU count"
                : starts_with(r, "model")     ? "model outside the zoo"
                : starts_with(r, "optimizer") ? "optimizer not modelled (Adafactor, 8-bit Adam)"
                : starts_with(r, "selective") ? "selective checkpointing of a kind not stated"
                : starts_with(r, "precision") ? "precision not modelled"
                                              : "GPU not named or not in the catalog"];
    }
  out << "\nmemory fit, published configurations that ran (memory-fit): " << v.cases.size() << " rows, "
      << v.expressible() << " expressible: " << v.not_refused() << " predicted to fit (" << v.central_fit()
      << " with the central estimate within the GPU's memory), " << v.expressible() - v.not_refused()
      << " refused\n  not expressible: " << v.cases.size() - v.expressible();
  for (const auto& [reason, n] : reasons) out << "; " << n << " " << reason;
  out << "\n  measured peaks: " << v.measured() << fmt::format(", mean |error| {:.1f}%, max {:.1f}%\n",
                                                                 100 * v.mean_abs_error(), 100 * v.max_abs_error());
  for (const auto& c : v.cases)
    if (c.expressible && c.measured_gib > 0)
      out << fmt::format("    line {:>3} {} {} batch {} ({}): predicted {:.2f} GiB, measured {:.2f} GiB ({}), {:+.1f}%\n",
                         c.line, c.gpu, c.model, c.batch, c.settings, c.predicted_gib, c.measured_gib,
                         c.peak_measure, 100 * c.error());
}

std::string memory_markdown(const MemoryValidation& v) {
  std::ostringstream o;
  const auto gib = [](double b) { return fmt::format("{:.1f}", b / units::kGiB); };
  o << "## Memory fit: published configurations that ran\n\n"
    << v.cases.size() << " configurations (validation/data/memory-fit); " << v.expressible()
    << " expressible, of which " << v.central_fit() << " have a central estimate within the GPU's memory and "
    << v.not_refused() << " are not refused (the interval's low end fits). " << v.measured()
    << " have a measured peak: mean |error| " << fmt::format("{:.1f}", 100 * v.mean_abs_error()) << "%, max "
    << fmt::format("{:.1f}", 100 * v.max_abs_error()) << "%.\n\n"
    << "| line | source | gpu | GiB | model | precision | batch | seq | expressed as | estimate GiB (low-high) | fits | measured | error |\n"
    << "|---|---|---|---|---|---|---|---|---|---|---|---|---|\n";
  for (const auto& c : v.cases) {
    if (!c.expressible) continue;
    o << "| " << c.line << " | " << c.source << " | " << c.gpu << " | " << gib(c.fit.available_bytes) << " | "
      << c.model << " | " << c.precision << " | " << c.batch << " | " << (c.seq_len > 0 ? std::to_string(c.seq_len) : "")
      << " | " << c.settings << " | " << gib(c.fit.needed_bytes()) << " (" << gib(c.fit.low_bytes()) << "-"
      << gib(c.fit.high_bytes()) << ") | "
      << (c.central_fits() ? "yes" : c.fit.fits() ? "within interval" : "REFUSED") << " | "
      << (c.measured_gib > 0 ? fmt::format("{:.2f} ({})", c.measured_gib, c.peak_measure) : "") << " | "
      << (c.measured_gib > 0 ? fmt::format("{:+.1f}%", 100 * c.error()) : "") << " |\n";
  }
  o << "\nNot expressible (" << v.cases.size() - v.expressible() << "):\n\n";
  for (const auto& c : v.cases)
    if (!c.expressible)
      o << "- line " << c.line << ", " << c.source << ", " << (c.gpu.empty() ? "(no GPU)" : c.gpu) << ", " << c.model
        << ", " << c.precision << ", batch " << c.batch << ": " << c.reason << "\n";
  return o.str();
}

}  // namespace scalecast::validation
