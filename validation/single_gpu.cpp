// Rows as scenarios of one GPU: the zoo model (or a `gpt:`/`llama:` shape) at the published batch,
// sequence length, precision, attention and checkpointing on the catalog GPU, timed by the compute
// model with no measured throughput; tokens/s become sequences/s by the sequence length. A row of
// data-parallel GPUs in one node (DDP, Horovod or FSDP) is predicted whole: the same compute with
// the gradient traffic over the board's NVLink that the analytical backend leaves exposed.
#include "validation/single_gpu.h"

#include <charconv>
#include <cmath>
#include <fmt/format.h>
#include <sstream>

#include "sim/backends/backend_registry.h"
#include "sim/io/csv.h"
#include "sim/catalogs/gpu_catalog.h"
#include "sim/catalogs/sequence_lengths.h"
#include "sim/io/input_error.h"
#include "sim/prediction/prediction.h"
#include "sim/prediction/prediction_interval.h"
#include "sim/report/text_table.h"
#include "sim/scenario/scenario.h"
#include "sim/scenario/workload_builder.h"
#include "sim/zoo/zoo.h"
#include "validation/board_fabric.h"

namespace scalecast::validation {
namespace {

// "32/4096/32/11008": the whole numbers of a shape; an InputError for anything else.
std::vector<int> numbers(const std::string& text) {
  std::vector<int> out;
  std::stringstream in(text);
  for (std::string part; std::getline(in, part, '/');) {
    int v = 0;
    const auto [end, ec] = std::from_chars(part.data(), part.data() + part.size(), v);
    if (ec != std::errc() || end != part.data() + part.size() || v < 0)
      throw InputError("shape '" + text + "': expected whole numbers separated by '/', got '" + part + "'");
    out.push_back(v);
  }
  return out;
}

// The GPU's generation, as the report groups rows.
std::string generation(const std::string& gpu) {
  if (gpu.starts_with("v100")) return "V100";
  if (gpu.starts_with("a100")) return "A100";
  if (gpu.starts_with("h100")) return "H100";
  if (gpu.starts_with("h200")) return "H200";
  if (gpu.starts_with("b200") || gpu.starts_with("gb200")) return "B200";
  return gpu;
}

// The family a model belongs to, as the report groups rows.
std::string family(const std::string& model) {
  if (model.starts_with("gpt:")) return "gpt";
  if (model.starts_with("llama")) return "llama";
  if (model.starts_with("resnet")) return "resnet";
  if (model.starts_with("bert")) return "bert";
  return model;
}

// The preset a row's data parallelism runs: the TensorFlow examples reduce through Horovod,
// PyTorch's and Paddle's through DDP-style buckets, FSDP as stated.
std::string data_parallel_method(const SingleGpuCase& c) {
  if (c.parallelism == "fsdp") return "fsdp";
  return c.source.starts_with("dle_rn50_tf") || c.source.starts_with("dle_bert_tf") ? "horovod" : "ddp";
}

// Throughput per GPU of `c.gpus` data-parallel GPUs of one node computing `m` each: the compute
// model's step with the exposed gradient traffic the analytical backend predicts over the board.
double node_throughput(const SingleGpuCase& c, const ModelSettings& m, const std::string& fabric) {
  const std::string method = data_parallel_method(c);
  // The cluster and method from a scenario's text; the model as express() set it. One node: the
  // network is never crossed, but a scenario names one.
  std::string text = fmt::format("name: single-gpu-line-{}\nmodel:\n  name: {}\n  batch_per_gpu: {}\n", c.line,
                                 m.name, m.batch_per_gpu);
  if (m.name == "gpt" || m.name == "llama")
    text += fmt::format("  layers: {}\n  hidden: {}\n  heads: {}\n  intermediate: {}\n", m.options.shape.layers,
                        m.options.shape.hidden, m.options.shape.heads, m.options.shape.intermediate);
  text += fmt::format("gpu: {{type: {}}}\ncluster:\n  gpus_per_node: {}\n  fabric: {}\n  network:\n"
                      "    bandwidth: 100Gbps\n    transport: rdma\nmethods: [{}]\ngpus: [{}]\n",
                      c.gpu, c.gpus, fabric, method, c.gpus);
  Scenario s = parse_scenario(text, "single-gpu line " + std::to_string(c.line));
  s.model = m;
  const Workload w = build_workload(s).workload;
  static const auto backend = make_backend("analytical");
  return predict(s, w, method, c.gpus, *backend).row.throughput / c.gpus;
}

void express(SingleGpuCase& c) {
  if (c.nodes != 1) {
    c.reason = std::to_string(c.nodes) + " nodes (their network is not modelled for this table)";
    return;
  }
  if (c.gpus != 1 && c.parallelism != "ddp" && c.parallelism != "fsdp") {
    c.reason = "parallelism " + c.parallelism + " (only data parallelism, each GPU computing its own batch, is "
               "expressed here)";
    return;
  }
  if (c.checkpointing != "none" && c.checkpointing != "full") {
    c.reason = c.checkpointing + " activation checkpointing of a kind the source does not state (torchtitan's per "
               "op, or every N-th block)";
    return;
  }
  if (!has_gpu(c.gpu)) {
    c.reason = "GPU " + c.gpu + " not in the catalog";
    return;
  }
  Scenario s;
  s.compute.gpu = c.gpu;
  ModelSettings& m = s.model;
  m.batch_per_gpu = c.batch;
  m.accumulation_steps = c.accumulation;
  m.precision = parse_precision(c.precision);
  if (!find_gpu(c.gpu).supports(m.precision)) {
    c.reason = c.precision + " on " + c.gpu;
    return;
  }
  if (half_width(m.precision)) m.mixed_precision = c.mixed_precision;
  m.options.bytes_per_element = gradient_bytes(m.precision, m.mixed_precision, m.reduce_precision);
  if (c.seq_len > 0) m.options.seq_len = c.seq_len;
  if (c.vocab > 0) m.options.vocab_size = c.vocab;
  m.attention = c.attention;
  m.memory_format = c.memory_format;
  m.kernels = c.kernels;
  m.loss = c.loss;
  m.attention_kernel = c.attention_kernel;
  m.activation_checkpointing = c.checkpointing == "full" ? Checkpointing::full : Checkpointing::none;
  m.sequence_lengths = c.sequence_lengths;
  m.sequence_bin = c.sequence_bin;
  m.optimizer = c.model.starts_with("resnet") ? "sgd" : "adam";
  if (c.model.starts_with("gpt:") || c.model.starts_with("llama:")) {
    const bool llama = c.model.starts_with("llama:");
    const auto n = numbers(c.model.substr(c.model.find(':') + 1));
    if (n.size() < 4) {
      c.reason = "shape " + c.model + " incomplete";
      return;
    }
    m.name = llama ? "llama" : "gpt";
    m.options.shape.layers = n[0];
    m.options.shape.hidden = n[1];
    m.options.shape.heads = n[2];
    m.options.shape.intermediate = n[3];
    if (llama && n.size() > 4) m.options.shape.kv_heads = n[4];
    // MPT has no dropout (MPTConfig's pdrops default to 0), as the sharded table reads it too.
    if (c.model_as_published.starts_with("MPT")) m.options.shape.dropout = false;
  } else if (zoo::has_model(c.model)) {
    m.name = c.model;
    m.options.shape.head = c.head;
    m.options.shape.mlm_positions = c.mlm_positions;
  } else {
    c.reason = "model " + c.model + " not in the zoo";
    return;
  }
  if (c.gpus == 1) {
    const Workload w = build_workload(s).workload;
    c.predicted = w.samples_per_step() / w.compute_s();
  } else {
    const std::string fabric = board_fabric(c.gpu);
    if (fabric.empty()) {
      c.reason = c.gpu + " on no board of the catalog's fabrics";
      return;
    }
    c.predicted = node_throughput(c, m, fabric);
  }
  c.expressible = true;
}

}  // namespace

std::map<std::string, std::pair<double, int>> SingleGpuValidation::by(const std::string& what) const {
  std::map<std::string, std::pair<double, int>> out;
  for (const auto& c : cases) {
    if (!c.expressible) continue;
    const std::string key = what == "generation" ? generation(c.gpu)
                            : what == "family"   ? family(c.model)
                            : what == "gpus"     ? (c.gpus == 1 ? "1 GPU" : "1 node, " + std::to_string(c.gpus) + " GPUs")
                                                 : c.precision;
    auto& [sum, n] = out[key];
    sum += std::abs(c.error()) * 100;
    ++n;
  }
  for (auto& [key, v] : out) v.first /= v.second;
  return out;
}

double SingleGpuValidation::log_rms() const {
  double squares = 0;
  int n = 0;
  for (const auto& c : cases)
    if (c.expressible) {
      squares += std::pow(std::log(c.published / c.predicted), 2);
      ++n;
    }
  return n > 0 ? std::sqrt(squares / n) : 0;
}

double SingleGpuValidation::coverage(double level_pct) const {
  const IntervalFactors f = interval_factors(with_compute_model(default_uncertainty()), level_pct);
  int inside = 0, n = 0;
  for (const auto& c : cases)
    if (c.expressible) {
      inside += f.holds_throughput(c.predicted, c.published);
      ++n;
    }
  return n > 0 ? static_cast<double>(inside) / n : 0;
}

SingleGpuValidation validate_single_gpu(const std::string& folder) {
  SingleGpuValidation v;
  const CsvFile csv(folder + "/throughput.csv");
  for (const CsvRecord& r : csv.records()) {
    SingleGpuCase c;
    c.line = r.line();
    c.source = r.non_empty("source");
    c.gpu = r.non_empty("gpu");
    c.model = r.non_empty("model");
    c.model_as_published = r.text("model_as_published");
    c.precision = r.non_empty("precision");
    c.unit = r.non_empty("unit");
    c.gpus = r.integer("gpus", 1, 1 << 20);
    c.nodes = r.integer("nodes", 1, 1 << 20);
    c.parallelism = r.non_empty("parallelism");
    c.attention = r.choice("attention", {"eager", "fused"});
    c.checkpointing = r.choice("activation_checkpointing", {"none", "full", "selective"});
    if (r.has_value("memory_format"))
      c.memory_format = r.choice("memory_format", kMemoryFormats);
    if (r.has_value("kernels")) c.kernels = r.choice("kernels", kKernelKinds);
    if (r.has_value("loss")) c.loss = r.choice("loss", kLossKinds);
    if (r.has_value("attention_kernel")) c.attention_kernel = r.choice("attention_kernel", kAttentionKernels);
    if (!r.text("vocab").empty()) c.vocab = r.integer("vocab", 1, 1 << 24);
    c.batch = r.integer("batch_per_gpu", 1, 1 << 20);
    if (!r.text("seq_len").empty()) c.seq_len = r.integer("seq_len", 1, 1 << 24);
    if (r.has_value("grad_accum")) c.accumulation = r.integer("grad_accum", 1, 1 << 20);
    if (r.has_value("mixed_precision")) c.mixed_precision = r.choice("mixed_precision", kMixedPrecisionModes);
    if (r.has_value("sequence_lengths"))
      c.sequence_lengths = r.choice("sequence_lengths", length_histogram_names());
    if (r.has_value("sequence_bin")) c.sequence_bin = r.integer("sequence_bin", 1, 1 << 20);
    if (r.has_value("head")) c.head = r.choice("head", {"pretraining", "question-answering"});
    if (r.has_value("mlm_positions")) c.mlm_positions = r.integer("mlm_positions", 1, 1 << 20);
    if (!c.sequence_lengths.empty() && find_length_histogram(c.sequence_lengths).max_length != c.seq_len)
      throw InputError(InputKind::file, fmt::format("{}:{}: sequence_lengths: expected a histogram cut to seq_len "
                                                    "{}, got {}", r.file(), r.line(), c.seq_len, c.sequence_lengths));
    const double published = r.number("throughput", Bound::between(1e-6, 1e12));
    const bool per_token = c.unit.starts_with("tokens/s");
    const bool per_gpu = c.unit.ends_with("/GPU");
    // "sentences/s" (DeepLearningExamples' TensorFlow BERT) counts sequences.
    if (!(c.unit.starts_with("images/s") || c.unit.starts_with("sequences/s") || c.unit.starts_with("sentences/s") ||
          per_token)) {
      c.reason = "unit " + c.unit;
    } else if (per_token && c.seq_len == 0) {
      c.reason = "tokens/s without a sequence length";
    } else {
      c.published = (per_token ? published / c.seq_len : published) / (per_gpu ? 1 : c.gpus);
      try {
        express(c);
      } catch (const InputError& e) {
        c.reason = e.what();
      }
    }
    v.cases.push_back(std::move(c));
  }
  return v;
}

void write_single_gpu_summary(std::ostream& out, const SingleGpuValidation& v) {
  int expressible = 0;
  for (const auto& c : v.cases) expressible += c.expressible;
  out << "\ncompute (validation/data/single-gpu): published single-GPU and single-node training throughput "
         "against the compute model (a node's rows with their exposed gradient traffic), zero-shot\n";
  TextTable t({"group", "rows", "MAPE"}, {"", "", "%"});
  for (const char* what : {"generation", "precision", "family", "gpus"})
    for (const auto& [key, v2] : v.by(what)) t.add_row({key, std::to_string(v2.second), fmt::format("{:.1f}", v2.first)});
  t.write(out);
  out << fmt::format("spread: log(published / predicted) root-mean-square {:.3f}; predict's 90% interval holds "
                     "{:.0f}% of the rows\n",
                     v.log_rms(), 100 * v.coverage(90));
  out << fmt::format("{} of {} rows expressible (the others: more than one GPU, a GPU or model outside the catalog, "
                     "a precision the GPU lacks, or parallelism other than data parallelism; report.md lists each)\n",
                     expressible, v.cases.size());
}

std::string single_gpu_markdown(const SingleGpuValidation& v) {
  std::ostringstream out;
  out << "## Compute on one GPU (validation/data/single-gpu)\n\nEach published single-GPU or single-node "
         "throughput (per GPU) predicted by the compute model with no measured throughput (a node of "
         "data-parallel GPUs with the gradient traffic the analytical backend leaves exposed over its NVLink); "
         "error = (predicted - published) / published.\n\n"
         "| line | source | gpu | GPUs | model | precision | attention | batch | seq | published | predicted | error |\n"
         "| --: | :-- | :-- | --: | :-- | :-- | :-- | --: | --: | --: | --: | --: |\n";
  for (const auto& c : v.cases)
    if (c.expressible)
      out << fmt::format("| {} | {} | {} | {} | {} | {} | {}{} | {} | {} | {:.1f} | {:.1f} | {:+.1f}% |\n", c.line,
                         c.source, c.gpu, c.gpus, c.model, c.precision, c.attention,
                         c.checkpointing == "full" ? ", checkpointed" : "", c.batch, c.seq_len, c.published,
                         c.predicted, 100 * c.error());
  out << "\nNot expressible:\n\n";
  for (const auto& c : v.cases)
    if (!c.expressible) out << "- line " << c.line << " (" << c.source << ", " << c.gpu << ", " << c.model << "): " << c.reason << "\n";
  return out.str();
}

}  // namespace scalecast::validation
