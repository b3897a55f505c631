// Each published row expressed field by field (shape, sequence, micro-batch, accumulation, precision,
// checkpointing, sharding, GPUs per node) as a scenario's text, on the source's network from source_networks().
#include "validation/sharded_training_rows.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <fmt/format.h>
#include <optional>

#include "sim/io/csv.h"
#include "sim/catalogs/gpu_catalog.h"
#include "sim/scenario/scenario.h"
#include "validation/board_fabric.h"

namespace scalecast::validation {
namespace {

constexpr const char* kIbmBlog = "pytorch-blog-ibm-2024-03";
constexpr const char* kFmsReadme = "fms-fsdp-readme";

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

std::string lower(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

// A whole number, or 0 where the field is empty.
int optional_integer(const CsvRecord& r, const std::string& column, int max) {
  return r.text(column).empty() ? 0 : r.integer(column, 1, max);
}

// The number a field begins with as printed ("5,762", "37556 (36108)", "94 (also printed as 95GB
// in footnote)"): thousands separators dropped, what follows the first space ignored; 0 where the
// field is empty.
double leading_number(const CsvRecord& r, const std::string& column) {
  const std::string& text = r.text(column);
  if (text.empty()) return 0;
  std::string digits;
  for (const char c : text.substr(0, text.find(' ')))
    if (c != ',') digits += c;
  double value = 0;
  const char* end = digits.data() + digits.size();
  const auto [stop, error] = std::from_chars(digits.data(), end, value);
  if (error != std::errc() || stop != end || !(value > 0))
    r.fail(column, "a positive number as printed (thousands separators and a parenthesised variant after it allowed)");
  return value;
}

// The number after `key` in a note ("ffn_dim_multiplier=1.3"), or nullopt where the key is absent.
std::optional<double> note_number(const CsvRecord& r, const std::string& key) {
  const std::string& note = r.text("note");
  const auto at = note.find(key);
  if (at == std::string::npos) return std::nullopt;
  const char* begin = note.data() + at + key.size();
  double value = 0;
  const auto [stop, error] = std::from_chars(begin, note.data() + note.size(), value);
  if (error != std::errc() || stop == begin || !(value > 0)) r.fail("note", "a positive number after '" + key + "'");
  return value;
}

// torchtitan's FFN rule as the note gives it ("ffn_dim_multiplier=1.3 multiple_of=1024"), unless
// the note gives it for another size of the family ("(70B: ffn_dim_multiplier=...)").
std::optional<int> note_ffn_width(const CsvRecord& r, const std::string& model, int hidden) {
  const std::string& note = r.text("note");
  const auto at = note.find("ffn_dim_multiplier=");
  if (at == std::string::npos) return std::nullopt;
  const auto open = note.rfind('(', at);
  if (open != std::string::npos && at >= 2 && note.compare(at - 2, 2, ": ") == 0 && open < at - 2) {
    const std::string size = note.substr(open + 1, at - 2 - open - 1);
    if (!contains(model, " " + size)) return std::nullopt;
  }
  const std::optional<double> multiple_of = note_number(r, "multiple_of=");
  if (!multiple_of || *multiple_of != std::floor(*multiple_of)) r.fail("note", "multiple_of=N with ffn_dim_multiplier");
  return llama_ffn_width(hidden, *note_number(r, "ffn_dim_multiplier="), static_cast<int>(*multiple_of));
}

// The size in billions of parameters a model's name gives ("Llama 2 13B architecture (FMS)": 13), 0 if none.
double billions(const std::string& model) {
  for (std::size_t at = model.find('B'); at != std::string::npos; at = model.find('B', at + 1)) {
    std::size_t begin = at;
    while (begin > 0 && (std::isdigit(static_cast<unsigned char>(model[begin - 1])) || model[begin - 1] == '.')) --begin;
    double v = 0;
    const auto [end, ec] = std::from_chars(model.data() + begin, model.data() + at, v);
    if (begin < at && (begin == 0 || model[begin - 1] == ' ') && ec == std::errc() && end == model.data() + at) return v;
  }
  return 0;
}

// The catalog GPU of a GPU as published and its memory (0: not stated); "" when none. A100s
// come in 40 and 80 GB, so one without its memory has none.
std::string catalog_gpu(const std::string& gpu, int memory_gib) {
  struct Name {
    const char* published;
    int memory_gib;
    const char* catalog;
  };
  static constexpr Name kNames[] = {{"A100", 40, "a100-sxm4-40gb"}, {"A100", 80, "a100"}, {"H100", 80, "h100"},
                                    {"H100", 0, "h100"},            {"H200", 0, "h200"},  {"B200", 0, "b200"},
                                    {"GB200", 0, "gb200"}};
  for (const Name& n : kNames)
    if (gpu == n.published && memory_gib == n.memory_gib) return n.catalog;
  return "";
}

// The preset a row's sharding names, "" when none does.
std::string sharding_method(const ShardedRow& row) {
  const std::string& s = row.sharding;
  if (s == "FSDP FULL_SHARD" || s == "FULL_SHARD (FSDP)" || s == "FSDP2 (1D)") return "fsdp";
  if (s == "FSDP SHARD_GRAD_OP") return "fsdp-grad-op";
  if (s == "HYBRID_SHARD (HSDP)") return "fsdp-hybrid";
  if (s.starts_with("DeepSpeed ZeRO-3")) return "zero3";
  // The blog leaves the strategy per size to the README of the same team's code and cluster,
  // which prints HYBRID_SHARD for 7B and 13B and FULL_SHARD for 34B and 70B.
  if (row.source == kIbmBlog && s.starts_with("FSDP (sharding strategy per size not stated"))
    return billions(row.model) <= 13 ? "fsdp-hybrid" : "fsdp";
  return "";
}

const SourceNetwork* find_network(const std::string& source, const std::string& gpu, const std::string& published) {
  for (const SourceNetwork& n : source_networks())
    if (n.source == source && gpu.starts_with(n.gpu_family) && n.as_published == published) return &n;
  return nullptr;
}

struct Shape {
  std::string family;  // gpt or llama
  int layers = 0, hidden = 0, heads = 0, kv_heads = 0, intermediate = 0, vocab = 0;
};

// The gpt or llama shape of a row, or the reason it has none.
std::string read_shape(const CsvRecord& r, const std::string& model, Shape& shape) {
  const std::string name = lower(model);
  shape.family = name.starts_with("mpt") || name.starts_with("gpt") ? "gpt" : name.starts_with("llama") ? "llama" : "";
  if (shape.family.empty()) return "model " + model + " has no gpt or llama shape";
  shape.layers = optional_integer(r, "layers", 1 << 12);
  shape.hidden = optional_integer(r, "hidden", 1 << 20);
  shape.heads = optional_integer(r, "heads", 1 << 12);
  shape.kv_heads = optional_integer(r, "kv_heads", 1 << 12);
  shape.intermediate = optional_integer(r, "intermediate", 1 << 22);
  shape.vocab = optional_integer(r, "vocab", 1 << 24);
  if (shape.layers == 0 || shape.hidden == 0 || shape.heads == 0) return "shape not stated";
  if (shape.vocab == 0) return "vocabulary not stated";
  if (shape.family == "gpt") {
    // MPT and GPT-3: multi-head attention, FFN expansion_ratio x hidden.
    if (shape.kv_heads != 0 && shape.kv_heads != shape.heads) return "grouped-query attention in a gpt shape";
    shape.kv_heads = shape.heads;
    if (shape.intermediate == 0) {
      const std::optional<double> ratio = note_number(r, "expansion_ratio ");
      if (!ratio) return "FFN width not stated";
      shape.intermediate = static_cast<int>(std::lround(*ratio * shape.hidden));
    }
    return "";
  }
  if (shape.kv_heads == 0) shape.kv_heads = shape.heads;
  // Llama: the width printed, else torchtitan's rule from the note, else the rule's defaults (no
  // multiplier, multiple_of 256: torchtitan's ModelArgs and FMS's LLaMAConfig, hidden_grow_factor
  // 8/3), which give Llama 2 7B's 11008 and 13B's 13824.
  if (shape.intermediate == 0)
    shape.intermediate = note_ffn_width(r, model, shape.hidden).value_or(llama_ffn_width(shape.hidden, 0, 256));
  return "";
}

std::string scenario_text(const ShardedRow& row, const Shape& shape, int gpus_per_node) {
  const SourceNetwork& n = *row.network;
  std::string text = fmt::format("name: sharded-training-line-{}\ndescription: \"{}: {} on {} x {}\"\nmodel:\n", row.line,
                                 row.source, row.model, row.gpus, row.gpu);
  text += fmt::format("  name: {}\n  layers: {}\n  hidden: {}\n  heads: {}\n", shape.family, shape.layers, shape.hidden,
                      shape.heads);
  if (shape.family == "llama") text += fmt::format("  kv_heads: {}\n", shape.kv_heads);
  // MPT has no dropout: MPTConfig's attn_pdrop, resid_pdrop and emb_pdrop default to 0
  // (llmfoundry/models/mpt/configuration_mpt.py) and the benchmark yamls set none.
  if (lower(row.model).starts_with("mpt")) text += "  dropout: false\n";
  text += fmt::format(
      "  intermediate: {}\n  vocab_size: {}\n  seq_len: {}\n  batch_per_gpu: {}\n  accumulation_steps: {}\n"
      "  precision: {}\n  optimizer: adam\n  attention: fused\n  activation_checkpointing: {}\n",
      shape.intermediate, shape.vocab, row.seq_len, row.micro_batch, row.accumulation,
      row.run_precision, row.recompute);
  if (!row.kernels.empty()) text += fmt::format("  kernels: {}\n", row.kernels);
  if (!row.loss.empty()) text += fmt::format("  loss: {}\n", row.loss);
  if (!row.reduce_precision.empty()) text += fmt::format("  reduce_precision: {}\n", row.reduce_precision);
  if (!row.attention_kernel.empty()) text += fmt::format("  attention_kernel: {}\n", row.attention_kernel);
  text += fmt::format("gpu: {{type: {}}}\ncluster:\n  gpus_per_node: {}\n  fabric: {}\n", row.catalog_gpu, gpus_per_node,
                      board_fabric(row.catalog_gpu));
  text += fmt::format("  network:\n    nic: {}\n    nics: {}\n    bandwidth: {}Gbps\n", n.nic, n.nics, n.rate_gbps);
  text += fmt::format("methods: [{}]\ngpus: [{}]\n", row.method, row.gpus);
  return text;
}

// Fills the expressed fields of `row`, or its reason.
void express(const CsvRecord& r, ShardedRow& row) {
  const std::string& note = r.text("note");
  if (const auto flag = note.find("FLAG: "); flag != std::string::npos) {
    row.reason = "tensor parallelism not modelled yet (" + note.substr(flag, note.find(';', flag) - flag) + ")";
    return;
  }
  if (contains(lower(row.sharding + " " + row.checkpointing), "offload")) {
    row.reason = "CPU offload not modelled";
    return;
  }
  if (row.published == 0) {
    row.reason = r.text("tflops_per_gpu").empty() ? "no throughput published"
                                                   : "only TFLOP/s per GPU published (their FLOP count is the source's)";
    return;
  }
  int memory = static_cast<int>(leading_number(r, "gpu_memory_gib"));
  // The README leaves out what the blog of the same team and cluster states: A100 80GB.
  if (row.source == kFmsReadme && row.gpu == "A100" && memory == 0) memory = 80;
  row.catalog_gpu = catalog_gpu(row.gpu, memory);
  if (row.catalog_gpu.empty()) {
    row.reason = "GPU " + row.gpu + (memory > 0 ? fmt::format(" {} GB", memory) : std::string(" (memory not stated)")) +
                 " not in the GPU catalog";
    return;
  }
  row.method = sharding_method(row);
  if (row.method.empty()) {
    row.reason = "sharding '" + row.sharding + "' is none of FSDP's or ZeRO-3's presets";
    return;
  }
  Shape shape;
  if (row.reason = read_shape(r, row.model, shape); !row.reason.empty()) return;
  row.shape = fmt::format("{} {}x{}, {} heads{}, FFN {}, vocab {}", shape.family, shape.layers, shape.hidden, shape.heads,
                          shape.kv_heads != shape.heads ? fmt::format(" ({} K/V)", shape.kv_heads) : "",
                          shape.intermediate, shape.vocab);
  row.seq_len = optional_integer(r, "seq_len", 1 << 20);
  row.micro_batch = optional_integer(r, "micro_batch", 1 << 16);
  row.accumulation = std::max(1, optional_integer(r, "grad_accum", 1 << 12));
  if (row.seq_len == 0 || row.micro_batch == 0) {
    row.reason = row.seq_len == 0 ? "sequence length not stated" : "micro-batch not stated";
    return;
  }
  // torchtitan's selective checkpointing: "op" its per-op policy, "layer" its default
  // selective_ac_option '2' (every 2nd block; torchtitan's config_manager).
  const std::string checkpointing = lower(row.checkpointing);
  if (checkpointing.starts_with("none") || checkpointing.starts_with("full"))
    row.recompute = checkpointing.substr(0, 4);
  else if (checkpointing.starts_with("selective op") || checkpointing.starts_with("selective (per op)"))
    row.recompute = "selective-op";
  else if (checkpointing.starts_with("selective layer"))
    row.recompute = "every-2";
  if (row.recompute.empty()) {
    row.reason = checkpointing.starts_with("selective")
                     ? "selective activation checkpointing of a kind not stated (per op, or which blocks)"
                     : "activation checkpointing not stated";
    return;
  }
  const std::string precision = lower(row.precision);
  const bool fp8 = contains(precision, "fp8") || contains(precision, "float8");
  if (!fp8 && !precision.starts_with("bf16") && !precision.starts_with("amp_bf16")) {
    row.reason = "precision '" + row.precision + "' not stated as bf16 or fp8";
    return;
  }
  row.run_precision = fp8 ? "fp8" : "bf16";
  if (!find_gpu(row.catalog_gpu).supports(parse_precision(row.run_precision))) {
    row.reason = row.run_precision + " on " + row.catalog_gpu;
    return;
  }
  const std::string attention = lower(r.text("attention"));
  if (!contains(attention, "flash") && !contains(attention, "sdpa")) {
    row.reason = "attention implementation not stated as fused (FlashAttention or SDPA)";
    return;
  }
  if (board_fabric(row.catalog_gpu).empty()) {
    row.reason = row.catalog_gpu + " is not on an 8-GPU board (its NVLink domain spans the rack)";
    return;
  }
  row.network = find_network(row.source, row.catalog_gpu, r.text("network"));
  if (row.network == nullptr) {
    row.reason = "no network for " + row.source + " on " + row.catalog_gpu + " ('" + r.text("network") + "')";
    return;
  }
  const int per_node = r.text("gpus_per_node").empty() ? 8 : static_cast<int>(leading_number(r, "gpus_per_node"));
  row.scenario = scenario_text(row, shape, per_node);
  row.expressible = true;
}

}  // namespace

int llama_ffn_width(int hidden, double multiplier, int multiple_of) {
  int width = 2 * (4 * hidden) / 3;
  if (multiplier > 0) width = static_cast<int>(multiplier * width);
  return multiple_of * ((width + multiple_of - 1) / multiple_of);
}

const std::vector<SourceNetwork>& source_networks() {
  static const std::vector<SourceNetwork> networks = {
      {"llm-foundry", "a100", "1600 Gbps node-node interconnect (RoCE)", "connectx-6", 8, 200, true,
       "README section headers: '1600 Gbps node-node interconnect (RoCE)' per node; taken as eight 200 Gb/s "
       "ConnectX-6 RoCE NICs, one per GPU as on an HGX A100 board (the NIC count is not printed)"},
      {"llm-foundry", "h100", "", "connectx-7", 8, 400, false,
       "not stated for the H100 tables; assumed the standard InfiniBand of an H100 cluster: DGX H100's eight "
       "400 Gb/s ConnectX-7 NDR NICs, one per GPU"},
      {"torchtitan-2024-04", "a100", "", "connectx-6", 8, 200, false,
       "not stated; assumed the standard InfiniBand of an A100 cluster: DGX A100's eight 200 Gb/s ConnectX-6 HDR "
       "NICs, one per GPU"},
      {"torchtitan-trainy-h200-2025-06", "h200",
       "NVLink within host; backend RDMA 400Gb/s (Mellanox CX-7) per GPU (WhiteFiber)", "connectx-7", 8, 400, true,
       "'backend RDMA 400Gb/s (Mellanox CX-7) per GPU'"},
      {kIbmBlog, "a100", "400Gbps inter-node interconnect, GPU direct RDMA", "connectx-6", 8, 50, true,
       "'400Gbps inter-node interconnect' per node, GPUDirect RDMA; the NICs are not named, so the rate is split "
       "over one NIC per GPU"},
      {kIbmBlog, "h100", "800Gbps inter-node interconnect", "connectx-7", 8, 100, true,
       "'800Gbps inter-node interconnect' per node; the NICs are not named, so the rate is split over one NIC per "
       "GPU (RDMA, as on the team's A100 cluster)"},
      {kFmsReadme, "a100", "", "connectx-6", 8, 50, false,
       "not stated in the README; the blog of the same team on the same 128 A100s states 400 Gb/s per node, "
       "taken as there"},
  };
  return networks;
}

std::vector<ShardedRow> read_sharded_rows(const std::string& folder) {
  std::vector<ShardedRow> rows;
  const CsvFile csv(folder + "/throughput.csv");
  for (const CsvRecord& r : csv.records()) {
    ShardedRow row;
    row.line = r.line();
    row.source = r.non_empty("source");
    row.model = r.non_empty("model");
    row.gpu = r.non_empty("gpu");
    row.gpus = r.integer("gpus", 1, 1 << 20);
    row.sharding = r.non_empty("sharding");
    row.checkpointing = r.text("activation_checkpointing");
    row.precision = r.text("precision");
    if (r.has_value("kernels")) row.kernels = r.choice("kernels", kKernelKinds);
    if (r.has_value("loss")) row.loss = r.choice("loss", kLossKinds);
    if (r.has_value("reduce_precision")) row.reduce_precision = r.choice("reduce_precision", {"fp32"});
    if (r.has_value("attention_kernel")) row.attention_kernel = r.choice("attention_kernel", kAttentionKernels);
    row.published = leading_number(r, "tokens_per_s_per_gpu");
    express(r, row);
    rows.push_back(std::move(row));
  }
  return rows;
}

}  // namespace scalecast::validation
