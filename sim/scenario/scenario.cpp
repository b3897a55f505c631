// Scenario files: reads and strictly validates the YAML (model, GPU, cluster, strategy, methods,
// GPU counts) after applying --set overrides, and derives each run's nodes and strategy.
#include "sim/scenario/scenario.h"

#include <algorithm>
#include <filesystem>
#include <optional>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include <fmt/format.h>
#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/yaml.h>

#include "sim/formats/cluster_fields.h"
#include "sim/collectives/algorithm_choice.h"
#include "sim/catalogs/nic_catalog.h"
#include "sim/catalogs/sequence_lengths.h"
#include "sim/io/input_error.h"
#include "sim/io/ranges.h"
#include "sim/io/yaml_reader.h"

namespace scalecast {
namespace {

namespace fs = std::filesystem;

// The registered all-reduce algorithms and the library's own choice, for the strategy key.
std::vector<std::string> allreduce_choices() {
  std::vector<std::string> names;
  for (const auto* a : collectives::allreduce_algorithms()) names.push_back(a->name);
  names.emplace_back(collectives::kAutomatic);
  return names;
}

std::vector<std::string> model_names() {
  std::vector<std::string> names;
  for (const auto& info : zoo::list_models()) names.push_back(info.name);
  return names;
}

std::vector<std::string> gpu_names() {
  std::vector<std::string> names;
  for (const auto& spec : gpu_catalog()) names.push_back(spec.name);
  return names;
}

std::vector<std::string> method_names() {
  std::vector<std::string> names;
  for (const auto& preset : list_presets()) names.push_back(preset.name);
  return names;
}

// A zoo model must be buildable with the sizes given: an image too small for a network's
// downsampling, or a sequence longer than its positions, is refused at the option's line.
void check_zoo_options(const YamlReader& m, const ModelSettings& s) {
  try {
    zoo::build_model(s.name, s.options);
  } catch (const InputError& e) {
    const bool images = zoo::build_model(s.name, {}).sample_unit == "images";
    const auto option = m.optional(images ? "image_size" : "seq_len");
    (option ? *option : m).fail("sizes " + s.name + " can be built with (" + e.what() + ")");
  }
}

bool listed(const std::vector<std::string>& keys, const std::string& key) {
  return std::find(keys.begin(), keys.end(), key) != keys.end();
}

// The shape keys of a transformer built by shape ("gpt", "llama"); other models take none.
void read_shape(const YamlReader& m, const zoo::ModelInfo* model, zoo::TransformerShape& shape) {
  const std::vector<std::string> none;
  const std::vector<std::string>& keys = model ? model->shape_keys : none;
  const std::vector<std::string>& required = model ? model->required_shape_keys : none;
  const auto read = [&](const std::string& key) -> std::optional<YamlReader> {
    auto v = listed(required, key) ? std::optional<YamlReader>(m.require(key)) : m.optional(key);
    if (v && !listed(keys, key)) {
      if (!model) v->fail("no " + key + " with a profile");
      if (keys.empty())
        v->fail("no " + key + " for " + model->name +
                " (a fixed shape; the zoo's gpt and llama are built by shape)");
      std::string known;
      for (const auto& k : keys) known += (known.empty() ? "" : ", ") + k;
      v->fail("no " + key + " for " + model->name + " (it takes " + known + ")");
    }
    return v;
  };
  if (auto v = read("layers")) shape.layers = v->integer(1, ranges::kMaxLayers);
  if (auto v = read("hidden")) shape.hidden = v->integer(1, ranges::kMaxWidth);
  if (auto v = read("intermediate")) shape.intermediate = v->integer(1, ranges::kMaxWidth);
  if (auto v = read("heads")) {
    shape.heads = v->integer(1, ranges::kMaxWidth);
    if (shape.hidden % shape.heads != 0)
      v->fail("a divisor of hidden (" + std::to_string(shape.hidden) + ")");
  }
  if (auto v = read("kv_heads")) {
    shape.kv_heads = v->integer(1, ranges::kMaxWidth);
    if (shape.heads % shape.kv_heads != 0)
      v->fail("a divisor of heads (" + std::to_string(shape.heads) + ")");
  }
  if (auto v = read("tied_embeddings")) shape.tied_embeddings = v->boolean();
  if (auto v = read("dropout")) shape.dropout = v->boolean();
  if (auto v = read("head")) shape.head = v->choice("a BERT head", {"pretraining", "question-answering"});
  if (auto v = read("mlm_positions")) shape.mlm_positions = v->integer(1, ranges::kMaxSequence);
}

// none, full, selective, selective-op or every-N (full on every N-th block); a YAML boolean, as
// scenarios wrote it before the modes, reads as full (true) or none (false).
void read_checkpointing(const YamlReader& v, ModelSettings& s) {
  const std::string text = v.is_scalar() ? v.string() : "";
  s.checkpoint_every = 1;
  if (text == "none") s.activation_checkpointing = Checkpointing::none;
  else if (text == "full") s.activation_checkpointing = Checkpointing::full;
  else if (text == "selective") s.activation_checkpointing = Checkpointing::selective;
  else if (text == "selective-op") s.activation_checkpointing = Checkpointing::selective_op;
  else if (text.starts_with("every-") && text.size() > 6 && text.size() < 10 &&
           std::all_of(text.begin() + 6, text.end(), [](char c) { return c >= '0' && c <= '9'; }) &&
           std::stoi(text.substr(6)) >= 1) {
    s.activation_checkpointing = Checkpointing::full;
    s.checkpoint_every = std::stoi(text.substr(6));
  } else if (bool on = false; YAML::convert<bool>::decode(YAML::Node(text), on)) {
    s.activation_checkpointing = on ? Checkpointing::full : Checkpointing::none;
  } else {
    v.fail("an activation checkpointing mode (one of none, full, selective, selective-op, every-N for every N-th "
           "block; true or false read as full or none)");
  }
}

// model.sequence_lengths and model.sequence_bin: a catalog histogram whose longest sample is the
// model's seq_len, for a zoo transformer (a profile's times were measured at its own lengths).
void read_sequence_lengths(const YamlReader& m, ModelSettings& s) {
  const auto lengths = m.optional("sequence_lengths");
  if (!lengths) {
    if (auto bin = m.optional("sequence_bin"))
      bin->fail("model.sequence_lengths beside it (a bin of lengths draws from a histogram)");
    return;
  }
  s.sequence_lengths = lengths->choice("a sequence-length histogram", length_histogram_names());
  if (!s.profile.empty())
    lengths->fail("no sequence-length histogram with a profile (its times were measured at its own lengths)");
  if (zoo::model_info(s.name)->sample_unit != "sequences")
    lengths->fail("no sequence-length histogram for " + s.name + " (it takes no sequences)");
  const int longest = find_length_histogram(s.sequence_lengths).max_length;
  if (s.options.seq_len != longest)
    lengths->fail(fmt::format("a histogram cut to model.seq_len ({} tokens; this one was cut to {}: set "
                              "seq_len: {})", s.options.seq_len, longest, longest));
  if (auto bin = m.optional("sequence_bin")) s.sequence_bin = bin->integer(1, longest);
}

ModelSettings read_model(const YamlReader& m, const fs::path& folder) {
  m.check_keys({"name", "profile", "batch_per_gpu", "seq_len", "vocab_size", "image_size",
                "precision", "optimizer", "layers", "hidden", "heads", "kv_heads", "intermediate",
                "tied_embeddings", "dropout", "head", "mlm_positions", "mixed_precision", "attention", "attention_kernel", "memory_format",
                "kernels", "loss", "reduce_precision", "activation_checkpointing", "accumulation_steps", "sequence_lengths",
                "sequence_bin"});
  ModelSettings s;
  if (auto profile = m.optional("profile")) {
    const fs::path resolved = folder / profile->string();
    std::error_code ec;
    if (!fs::is_regular_file(resolved, ec))
      profile->fail("an existing profile file (looked for " + resolved.string() + ")");
    s.profile = resolved.string();
    if (auto name = m.optional("name")) s.name = name->string();
  } else {
    const YamlReader name = m.require("name");
    s.name = name.string();
    if (!zoo::has_model(s.name)) {
      std::string known;
      for (const auto& n : model_names()) known += (known.empty() ? "" : ", ") + n;
      name.fail("a zoo model (one of " + known +
                "), or for any other model a profile CSV as model.profile (made by scalecast "
                "import-trace or scalecast profile)");
    }
  }
  read_shape(m, s.profile.empty() ? zoo::model_info(s.name) : nullptr, s.options.shape);
  s.batch_per_gpu = m.require("batch_per_gpu").integer(1, ranges::kMaxBatch);
  if (auto v = m.optional("accumulation_steps")) s.accumulation_steps = v->integer(1, ranges::kMaxAccumulation);
  if (auto v = m.optional("seq_len")) s.options.seq_len = v->integer(1, ranges::kMaxSequence);
  if (auto v = m.optional("vocab_size")) s.options.vocab_size = v->integer(1, ranges::kMaxVocabulary);
  if (auto v = m.optional("image_size")) s.options.image_size = v->integer(1, ranges::kMaxImageSize);
  if (auto v = m.optional("mlm_positions")) {
    if (s.options.shape.head == "question-answering") v->fail("no mlm_positions with head question-answering");
    if (s.options.shape.mlm_positions > s.options.seq_len)
      v->fail(fmt::format("at most model.seq_len ({})", s.options.seq_len));
  }
  if (auto v = m.optional("precision")) {
    s.precision = parse_precision(v->choice("a precision", {"fp32", "tf32", "fp16", "bf16", "fp8"}));
  }
  if (auto v = m.optional("optimizer")) s.optimizer = v->choice("an optimizer", {"sgd", "adam"});
  if (auto v = m.optional("mixed_precision"))
    s.mixed_precision = v->choice("a mixed-precision mode", kMixedPrecisionModes);
  if (auto v = m.optional("reduce_precision")) {
    s.reduce_precision = v->choice("a gradient reduction width", {"fp32"});
    if (!half_width(s.precision) || s.mixed_precision == "autocast")
      v->fail("no reduce_precision unless the model holds half-width parameters (its gradients are fp32 already)");
  }
  s.options.bytes_per_element = gradient_bytes(s.precision, s.mixed_precision, s.reduce_precision);
  if (auto v = m.optional("attention")) s.attention = v->choice("an attention kind", {"eager", "fused"});
  if (auto v = m.optional("attention_kernel")) {
    s.attention_kernel = v->choice("a fused attention kernel", kAttentionKernels);
    if (s.attention != "fused")
      v->fail("no attention kernel unless model.attention is fused (it is " + s.attention + ")");
  }
  if (auto v = m.optional("memory_format"))
    s.memory_format = v->choice("a memory format", kMemoryFormats);
  if (auto v = m.optional("kernels")) s.kernels = v->choice("a kind of kernels", kKernelKinds);
  if (auto v = m.optional("loss")) s.loss = v->choice("a way to run the loss", kLossKinds);
  if (auto v = m.optional("activation_checkpointing")) read_checkpointing(*v, s);
  read_sequence_lengths(m, s);
  if (s.profile.empty()) check_zoo_options(m, s);
  return s;
}

ComputeSettings read_gpu(const YamlReader& g) {
  g.check_keys({"type", "single_gpu_throughput", "compute_efficiency", "memory_efficiency"});
  ComputeSettings s;
  s.gpu = g.require("type").choice("a GPU", gpu_names());
  if (auto v = g.optional("single_gpu_throughput"))
    s.single_gpu_throughput = v->number(ranges::throughput());
  if (auto v = g.optional("compute_efficiency"))
    s.compute_efficiency = v->number(ranges::efficiency());
  if (auto v = g.optional("memory_efficiency")) s.memory_efficiency = v->number(ranges::efficiency());
  return s;
}

std::vector<std::string> with_keys(std::vector<std::string> keys, const std::vector<std::string>& more) {
  keys.insert(keys.end(), more.begin(), more.end());
  return keys;
}

// A fabric kind, or a map of a kind and the figures that replace its defaults.
void read_fabric(const YamlReader& f, Cluster& c) {
  if (!f.is_map() && !f.is_scalar())
    f.fail("a fabric kind, or a map {kind, bandwidth, latency, bridge_bandwidth}");
  if (!f.is_map()) {
    c.fabric = default_fabric(f.choice("a fabric", fabric_kinds()));
    return;
  }
  f.check_keys(scenario_keys(fabric_fields(), false));
  c.fabric = default_fabric(f.require("kind").choice("a fabric", fabric_kinds()));
  read_scenario_fields(fabric_fields(), f, c);
}

// NIC and transport: a catalog NIC's figures (network.nic), else the transport's defaults, then
// whatever the scenario states. Needs the cluster's fabric and GPU.
void read_network(const YamlReader& n, Cluster& c) {
  n.check_keys(with_keys({"nic", "nics", "bandwidth", "transport"}, scenario_keys(transport_fields(), false)));
  const NicSpec* nic = nullptr;
  if (auto v = n.optional("nic")) {
    nic = &find_nic(v->choice("a NIC", nic_names()));
    c.nic = nic->name;
  }
  if (auto v = n.optional("nics")) c.nics_per_node = v->integer(1, ranges::kMaxGpusPerNode);
  const auto bandwidth = nic ? n.optional("bandwidth") : std::optional(n.require("bandwidth"));
  c.nic_bandwidth = Rate(bandwidth ? bandwidth->rate(ranges::rate()) : nic->line_rate);
  const auto transport = nic ? n.optional("transport") : std::optional(n.require("transport"));
  c.transport = transport ? parse_transport(transport->choice("a transport", {"tcp", "rdma", "efa"})) : nic->transport;
  TransportParams& p = c.net;
  p = default_transport_params(c.transport);
  if (nic && nic->transport == c.transport) {
    p.latency = Seconds(nic->latency_s);
    p.reported_latency = Seconds(nic->reported_latency_s);
    p.ordered_writes = nic->ordered_writes;
    if (c.transport == Transport::tcp) p.socket_threads = nic->socket_threads;
  }
  read_scenario_fields(transport_fields(), n, c);
}

// "single-switch", or a map {kind: leaf-spine, nodes_per_leaf, oversubscription}.
Topology read_topology(const YamlReader& t) {
  Topology topology;
  if (!t.is_map()) {
    if (!t.is_scalar() || t.string() != "single-switch")
      t.fail("single-switch, or a map {kind: leaf-spine, nodes_per_leaf, oversubscription}");
    return topology;
  }
  topology.kind = parse_topology_kind(t.require("kind").choice("a topology", {"single-switch", "leaf-spine"}));
  if (topology.kind == TopologyKind::single_switch) {
    t.check_keys({"kind"});
    return topology;
  }
  t.check_keys({"kind", "nodes_per_leaf", "oversubscription"});
  topology.nodes_per_leaf = t.require("nodes_per_leaf").integer(1, ranges::kMaxGpus);
  if (auto v = t.optional("oversubscription"))
    topology.oversubscription = v->number(ranges::oversubscription());
  return topology;
}

Cluster read_cluster(const YamlReader& c, const std::string& gpu) {
  c.check_keys({"gpus_per_node", "nodes", "cpu", "fabric", "network", "topology", "parameter_server",
                "shared_cores", "compute_slowdown"});
  Cluster cluster;
  cluster.gpu = gpu;
  cluster.gpus_per_node = c.require("gpus_per_node").integer(1, ranges::kMaxGpusPerNode);
  cluster.node_gpus = cluster.gpus_per_node;
  if (auto v = c.optional("nodes")) cluster.fixed_nodes = v->integer(1, ranges::kMaxGpus);
  if (auto v = c.optional("cpu")) cluster.cpu = parse_cpu_vendor(v->choice("a CPU vendor", {"intel", "amd"}));
  if (auto v = c.optional("shared_cores")) cluster.shared_cores = v->integer(1, ranges::kMaxGpus);
  if (auto v = c.optional("compute_slowdown")) {
    cluster.compute_slowdown = v->number(ranges::slowdown());
    cluster.compute_slowdown_given = true;
  }
  read_fabric(c.require("fabric"), cluster);
  read_network(c.require("network"), cluster);
  if (auto v = c.optional("topology")) cluster.topology = read_topology(*v);
  if (auto v = c.optional("parameter_server")) {
    v->check_keys(scenario_keys(parameter_server_fields(), false));
    read_scenario_fields(parameter_server_fields(), *v, cluster);  // without a placement: dedicated servers
  }
  return cluster;
}

StrategyOverrides read_strategy(const YamlReader& s) {
  s.check_keys({"allreduce", "library", "bucket_size", "first_bucket_size", "fusion_cycle", "partition_size",
                "credit", "call_overhead", "nccl_algo", "nccl_proto", "nccl_nvls", "nccl_min_channels",
                "nccl_max_channels", "nccl_nvls_chunk", "nccl_nvls_tree_chunk", "nccl_buffsize", "nccl_version",
                "tensor_parallel", "sequence_parallel"});
  StrategyOverrides o;
  if (auto v = s.optional("allreduce")) o.allreduce = v->choice("an all-reduce algorithm", allreduce_choices());
  if (auto v = s.optional("library")) o.library = v->choice("a collective library", {"nccl", "gloo"});
  if (auto v = s.optional("bucket_size")) o.bucket_bytes = v->bytes(ranges::size());
  if (auto v = s.optional("first_bucket_size")) o.first_bucket_bytes = v->bytes(ranges::size());
  if (auto v = s.optional("fusion_cycle")) o.cycle_s = v->duration(ranges::cycle());
  if (auto v = s.optional("partition_size")) o.partition_bytes = v->bytes(ranges::size());
  if (auto v = s.optional("credit")) o.credit_bytes = v->bytes(ranges::size());
  if (auto v = s.optional("call_overhead")) o.call_overhead_s = v->duration(ranges::latency());
  if (auto v = s.optional("tensor_parallel")) o.tensor_parallel = v->integer(1, 64);
  if (auto v = s.optional("sequence_parallel")) o.sequence_parallel = v->boolean();
  // NCCL's environment, in its own syntax (NCCL_ALGO, NCCL_PROTO, ...).
  namespace nccl = collectives::nccl;
  nccl::NcclSettings& n = o.nccl;
  for (const auto& [key, algorithms] : {std::pair{"nccl_algo", true}, std::pair{"nccl_proto", false}})
    if (auto v = s.optional(key)) {
      (algorithms ? n.algo : n.proto) = v->string();
      if (!nccl::valid_mask(v->string(), algorithms)) v->fail(nccl::mask_syntax(algorithms));
    }
  if (auto v = s.optional("nccl_nvls")) n.nvls = v->boolean();
  if (auto v = s.optional("nccl_version")) {
    n.version = nccl::parse_nccl_version(v->string());
    if (n.version == 0) v->fail(nccl::nccl_version_syntax());
  }
  if (auto v = s.optional("nccl_min_channels")) n.min_channels = v->integer(1, nccl::kMaxChannels);
  if (auto v = s.optional("nccl_max_channels")) n.max_channels = v->integer(1, nccl::kMaxChannels);
  if (n.min_channels > 0 && n.max_channels > 0 && n.min_channels > n.max_channels)
    s.require("nccl_min_channels")
        .fail("at most nccl_max_channels (" + std::to_string(n.max_channels) + ") channels");
  const Bound chunk = Bound::between(nccl::kMinChunk, nccl::kMaxChunk);
  if (auto v = s.optional("nccl_nvls_chunk")) n.nvls_chunk = v->bytes(chunk);
  if (auto v = s.optional("nccl_nvls_tree_chunk")) n.nvls_tree_chunk = v->bytes(chunk);
  if (auto v = s.optional("nccl_buffsize"))
    n.buffsize = v->bytes(Bound::between(nccl::kMinBuffSize, nccl::kMaxBuffSize));
  return o;
}

std::vector<int> read_gpus(const YamlReader& list, const Cluster& cluster) {
  std::vector<int> gpus = list.int_list(1, ranges::kMaxGpus);
  const int per_node = cluster.gpus_per_node, nodes = cluster.fixed_nodes;
  for (std::size_t i = 0; i < gpus.size(); ++i) {
    if (nodes > 0 && (gpus[i] % nodes != 0 || gpus[i] / nodes > per_node))
      list.item(i).fail("a multiple of cluster.nodes (" + std::to_string(nodes) + ") up to " +
                        std::to_string(nodes * per_node));
    if (nodes == 0 && gpus[i] > per_node && gpus[i] % per_node != 0)
      list.item(i).fail("a multiple of gpus_per_node (" + std::to_string(per_node) +
                        ") or fewer GPUs than one node has");
  }
  return gpus;
}

Scenario read_scenario(const YamlReader& root, const std::string& path) {
  root.check_keys({"name", "description", "assumptions", "model", "gpu", "cluster", "strategy",
                   "methods", "gpus", "iterations", "prices", "search", "switched_off"});
  Scenario s;
  s.path = path;
  s.name = root.require("name").string();
  if (auto v = root.optional("description")) s.description = v->string();
  if (auto v = root.optional("assumptions")) s.assumptions = v->string_list();
  // A cluster alone (for collectives) needs no model and no methods; commands that train say so.
  if (auto v = root.optional("model")) s.model = read_model(*v, fs::path(path).parent_path());
  s.compute = read_gpu(root.require("gpu"));
  if (const GpuSpec& gpu = find_gpu(s.compute.gpu); !gpu.supports(s.model.precision)) {
    std::string has;
    for (Precision p : {Precision::fp32, Precision::tf32, Precision::fp16, Precision::bf16, Precision::fp8})
      if (gpu.supports(p)) has += (has.empty() ? "" : ", ") + to_string(p);
    root.require("model").require("precision").fail("a precision the " + gpu.name + " computes in (" + has + ")");
  }
  s.cluster = read_cluster(root.require("cluster"), s.compute.gpu);
  if (auto v = root.optional("strategy")) s.strategy = read_strategy(*v);
  if (auto v = root.optional("methods")) s.methods = v->choice_list("a method", method_names());
  s.gpus = read_gpus(root.require("gpus"), s.cluster);
  if (const int t = s.strategy.tensor_parallel; t > 1) {
    const YamlReader key = root.require("strategy").require("tensor_parallel");
    if (s.cluster.gpus_per_node % t != 0)
      key.fail("a tensor-parallel degree that divides cluster.gpus_per_node (" + std::to_string(s.cluster.gpus_per_node) +
               "): the group stays inside a node");
    for (int g : s.gpus)
      if (g % t != 0) key.fail("a degree that divides every GPU count (" + std::to_string(g) + " does not)");
  }
  if (auto v = root.optional("iterations")) s.iterations = v->integer(2, ranges::kMaxIterations);
  if (auto v = root.optional("prices")) s.prices = read_prices(*v);
  if (auto v = root.optional("search")) s.search = read_search(*v, method_names());
  if (auto v = root.optional("switched_off")) {
    for (const auto& name : v->choice_list("a mechanism", mechanism_names()))
      s.switched_off.push_back(parse_mechanism(name));
    switch_off(s.switched_off, s.cluster, s.strategy.nccl);
  }
  return s;
}

// Counts documents as yaml-cpp's parser delivers them, and where each begins. yaml-cpp 0.7 hands
// out an endless run of empty documents for some malformed text (a root anchor or tag before
// ','), so LoadAll never returns: counting stops at the second.
class DocumentCounter : public YAML::EventHandler {
 public:
  int documents = 0;
  int second_line = 0;  // 1-based line of the second document's start, 0 if unknown
  void OnDocumentStart(const YAML::Mark& mark) override {
    if (++documents == 2) second_line = mark.line >= 0 ? mark.line + 1 : 0;
  }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark&, YAML::anchor_t) override {}
  void OnAlias(const YAML::Mark&, YAML::anchor_t) override {}
  void OnScalar(const YAML::Mark&, const std::string&, YAML::anchor_t, const std::string&) override {}
  void OnSequenceStart(const YAML::Mark&, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {}
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark&, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {}
  void OnMapEnd() override {}
};

// The line a second document begins on: the parser's mark, else the last '---' line.
int second_document_line(int parser_line, const std::string& text) {
  if (parser_line > 0) return parser_line;
  int line = 1, separator = 1;
  std::istringstream lines(text);
  for (std::string l; std::getline(lines, l); ++line)
    if (l.starts_with("---")) separator = line;
  return separator;
}

// Parses the text; it must hold one document, a map. Throws an InputError.
YAML::Node load_yaml(const std::string& text, const std::string& path) {
  YAML::Node root;
  try {
    std::istringstream in(text);
    YAML::Parser parser(in);
    DocumentCounter counter;
    while (counter.documents < 2 && parser.HandleNextDocument(counter)) {
    }
    if (counter.documents > 1)
      throw InputError(InputKind::file, path + ":" + std::to_string(second_document_line(counter.second_line, text)) +
                          ": expected one YAML document, got a second one (a line '---', or text the "
                          "first document cannot hold, starts it)");
    root = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    throw InputError(InputKind::file, path + ":" + std::to_string(std::max(0, e.mark.line) + 1) +
                        ": expected valid YAML, got a syntax error (" + e.msg + ")");
  }
  if (root.IsNull()) throw InputError(InputKind::file, path + ":1: expected a map of scenario keys, got an empty file");
  if (!root.IsMap()) YamlReader(root, path).fail("a map of scenario keys");
  return root;
}

// Sets one "key.path=value" into the tree, creating intermediate maps; returns the key path.
std::string apply_override(YAML::Node& root, const ScenarioOverride& set) {
  const std::string& text = set.assignment;
  const std::string& origin = set.origin;
  const auto equals = text.find('=');
  const std::string key_path = text.substr(0, equals);
  if (equals == std::string::npos || key_path.empty() || key_path.front() == '.' ||
      key_path.back() == '.' || key_path.find("..") != std::string::npos)
    throw InputError(InputKind::file, origin + ": expected key.path=value, got '" + text + "'");
  const std::string value_text = text.substr(equals + 1);
  std::vector<std::string> keys;
  std::stringstream split(key_path);
  for (std::string key; std::getline(split, key, '.');) keys.push_back(key);
  YAML::Node value;
  try {
    value = YAML::Load(value_text);
  } catch (const YAML::Exception& e) {
    throw InputError(InputKind::file, origin + " " + key_path + ": expected a YAML value (" + e.msg + "), got '" +
                        value_text + "'");
  }
  YAML::Node node;
  node.reset(root);
  std::string walked;
  for (std::size_t i = 0; i + 1 < keys.size(); ++i) {
    walked += (walked.empty() ? "" : ".") + keys[i];
    const bool shorthand = keys[i] == "fabric" || keys[i] == "topology";  // "pcie3" means {kind: pcie3}
    if (!node[keys[i]] || node[keys[i]].IsNull()) {
      node[keys[i]] = YAML::Node(YAML::NodeType::Map);
    } else if (shorthand && node[keys[i]].IsScalar()) {
      YAML::Node expanded(YAML::NodeType::Map);
      expanded["kind"] = node[keys[i]].Scalar();
      node[keys[i]] = expanded;
    } else if (!node[keys[i]].IsMap()) {
      throw InputError(InputKind::file, origin + " " + walked + ": expected a map to hold '" + keys[i + 1] +
                          "', got " + (node[keys[i]].IsScalar()
                                           ? "'" + node[keys[i]].Scalar() + "'"
                                           : std::string("a list")));
    }
    YAML::Node next = node[keys[i]];
    node.reset(next);
  }
  node[keys.back()] = value;
  return key_path;
}

ScenarioOverrides from_set(const std::vector<std::string>& sets) {
  ScenarioOverrides out;
  for (const auto& s : sets) out.sets.push_back({s, "--set"});
  return out;
}

}  // namespace

Scenario parse_scenario(const std::string& text, const std::string& path, const ScenarioOverrides& overrides) {
  YAML::Node root = load_yaml(text, path);
  std::vector<YamlReader::Overridden> overridden;
  for (const auto& set : overrides.sets) overridden.push_back({apply_override(root, set), set.origin});
  return read_scenario(YamlReader(root, path, overridden), path);
}

Cluster with_transport_values(Cluster cluster, const ScenarioOverrides& overrides, const std::string& file) {
  YAML::Node root(YAML::NodeType::Map);
  std::vector<YamlReader::Overridden> overridden;
  for (const auto& set : overrides.sets) overridden.push_back({apply_override(root, set), set.origin});
  const YamlReader top(root, file, overridden);
  // What a built schedule can still take: how fast and how late data moves, not what was built.
  const auto takes_only = [](const YamlReader& r, const std::vector<std::string>& keys) {
    try {
      r.check_keys(keys);
    } catch (const InputError& e) {
      throw InputError(InputKind::file, std::string(e.what()) + " (a schedule already built takes only these; build it "
                                                                "again with schedule --cluster to change the rest)");
    }
  };
  takes_only(top, {"cluster"});
  const YamlReader c = top.require("cluster");
  takes_only(c, {"fabric", "network", "parameter_server"});
  const auto take = [&](const auto& table) {
    if (auto block = c.optional(std::string(table.scenario_block))) {
      takes_only(*block, scenario_keys(table, true));
      read_scenario_fields(table, *block, cluster);
    }
  };
  take(fabric_fields());
  take(transport_fields());
  take(parameter_server_fields());
  return cluster;
}

Scenario parse_scenario(const std::string& text, const std::string& path, const std::vector<std::string>& overrides) {
  return parse_scenario(text, path, from_set(overrides));
}

int gradient_bytes(Precision precision, const std::string& mixed_precision, const std::string& reduce_precision) {
  return half_width(precision) && mixed_precision != "autocast" && reduce_precision != "fp32" ? 2 : 4;
}

Scenario load_scenario(const std::string& path, const std::vector<std::string>& overrides) {
  return load_scenario(path, from_set(overrides));
}

Scenario load_scenario(const std::string& path, const ScenarioOverrides& overrides) {
  std::error_code ec;
  if (!fs::exists(path, ec))
    throw InputError(InputKind::file, path + ": expected a scenario file, got no such file");
  std::ifstream in(path);
  if (!fs::is_regular_file(path, ec) || !in)
    throw InputError(InputKind::file, path + ": expected a readable scenario file, got one that cannot be read");
  std::ostringstream text;
  text << in.rdbuf();
  return parse_scenario(text.str(), path, overrides);
}

}  // namespace scalecast
