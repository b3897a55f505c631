// Writing and strictly reading schedule JSON: cluster, strategy and tasks with dependencies.
// Every field is range-checked and cross-checked (dependencies point to earlier tasks, servers
// exist, layers exist, pushes pair with pulls), so a valid file is a DAG any backend can run.
#include "sim/formats/schedule_json.h"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <utility>
#include <unordered_map>

#include "sim/formats/cluster_fields.h"
#include "sim/collectives/algorithm_choice.h"
#include "sim/catalogs/gpu_catalog.h"
#include "sim/io/json_reader.h"
#include "sim/catalogs/nic_catalog.h"
#include "sim/formats/task_json.h"

namespace scalecast {
namespace {

using nlohmann::json;
using nlohmann::ordered_json;

ordered_json cluster_json(const Cluster& c) {
  return {{"gpu", c.gpu},
          {"nodes", c.nodes},
          {"gpus_per_node", c.gpus_per_node},
          {"fabric", schedule_block_json(fabric_fields(), c.fabric)},
          {"node_gpus", c.node_gpus > 0 ? c.node_gpus : c.gpus_per_node},
          {"nics_per_node", c.nics_per_node},
          {"nic", c.nic},
          {"cpu", to_string(c.cpu)},
          {"nic_bandwidth_Bps", c.nic_bandwidth.bytes_per_s()},
          {"shared_cores", c.shared_cores},
          {"compute_slowdown", c.compute_slowdown},
          {"transport", to_string(c.transport)},
          {"net", schedule_block_json(transport_fields(), c.net)},
          {"topology",
           {{"kind", to_string(c.topology.kind)},
            {"nodes_per_leaf", c.topology.nodes_per_leaf},
            {"oversubscription", c.topology.oversubscription}}},
          {"parameter_server", schedule_block_json(parameter_server_fields(), c.ps)}};
}

// NCCL's environment as the scenario's strategy.nccl_* keys state it (0 channels: NCCL's own).
ordered_json nccl_json(const collectives::nccl::NcclSettings& n) {
  return {{"version", collectives::nccl::nccl_version_text(n.version)},
          {"algo", n.algo},
          {"proto", n.proto},
          {"nvls", n.nvls},
          {"min_channels", n.min_channels},
          {"max_channels", n.max_channels},
          {"nvls_chunk_bytes", n.nvls_chunk},
          {"nvls_tree_chunk_bytes", n.nvls_tree_chunk},
          {"buffsize_bytes", n.buffsize},
          {"pipeline_fill", n.pipeline_fill}};
}

ordered_json strategy_json(const Strategy& s) {
  ordered_json out = {{"method", s.method},
          {"timing", to_string(s.timing)},
          {"grouping", to_string(s.grouping)},
          {"bucket_bytes", s.bucket_bytes},
          {"first_bucket_bytes", s.first_bucket_bytes},
          {"cycle_s", s.cycle_s},
          {"partition_bytes", s.partition_bytes},
          {"credit_bytes", s.credit_bytes},
          {"priority", s.priority},
          {"overlap_next_forward", s.overlap_next_forward},
          {"aggregation", to_string(s.aggregation)},
          {"algorithm", s.algorithm},
          {"call_overhead_s", s.call_overhead_s},
          {"node_local_reduce", s.node_local_reduce},
          {"pull_requests", s.pull_requests},
          {"key_hash", s.key_hash},
          {"host_staged", s.host_staged},
          {"library", to_string(s.library)},
          {"nccl", nccl_json(s.nccl)}};
  // Sharded data parallel's knobs, written only where it shards (older files stay as they were).
  if (s.sharding != Sharding::none)
    out["sharding"] = {{"state", to_string(s.sharding)},
                       {"reshard_after_forward", s.reshard_after_forward},
                       {"shard_in_node", s.shard_in_node},
                       {"gathers_in_flight", s.gathers_in_flight}};
  return out;
}

// Layer indices: any that leaves room for a count of layers (the largest index + 1) in an int.
constexpr int kMaxLayer = std::numeric_limits<int>::max() - 1;

const std::vector<std::string> kTaskKeys = {"id", "kind", "name", "iteration", "deps"};
const std::vector<std::string> kComputeKeys = {"layer", "duration_s"};
const std::vector<std::string> kCommKeys = {"op",       "algorithm", "bytes",  "first_layer", "last_layer",
                                            "tensors", "priority",  "server", "delay_s", "group"};

std::vector<std::string> concat(std::vector<std::string> a, const std::vector<std::string>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

std::vector<std::string> gpu_names() {
  std::vector<std::string> names;
  for (const auto& spec : gpu_catalog()) names.push_back(spec.name);
  return names;
}

Topology topology_from(const JsonReader& t) {
  t.check_keys({"kind", "nodes_per_leaf", "oversubscription"});
  Topology topology;
  topology.kind = t.require("kind").enumeration("a topology", {TopologyKind::single_switch, TopologyKind::leaf_spine});
  const bool leaves = topology.kind == TopologyKind::leaf_spine;
  topology.nodes_per_leaf = t.require("nodes_per_leaf").integer(leaves ? 1 : 0, ranges::kMaxGpus);
  topology.oversubscription = t.require("oversubscription").number(ranges::oversubscription());
  return topology;
}

Cluster cluster_from(const JsonReader& j) {
  j.check_keys({"gpu", "nodes", "gpus_per_node", "fabric", "node_gpus", "nics_per_node", "nic", "cpu",
                "nic_bandwidth_Bps", "shared_cores", "compute_slowdown", "transport", "net", "topology", "parameter_server"});
  Cluster c;
  c.gpu = j.require("gpu").choice("a GPU", gpu_names());
  c.nodes = j.require("nodes").integer(1, ranges::kMaxGpus);
  c.gpus_per_node = j.require("gpus_per_node").integer(1, ranges::kMaxGpusPerNode);
  if (static_cast<int64_t>(c.nodes) * c.gpus_per_node > ranges::kMaxGpus)
    j.require("nodes").fail("at most " + std::to_string(ranges::kMaxGpus / c.gpus_per_node) + " nodes of " +
                            std::to_string(c.gpus_per_node) + " GPUs (" + std::to_string(ranges::kMaxGpus) +
                            " GPUs in all)");
  c.fabric = schedule_block_from(fabric_fields(), j.require("fabric"));
  c.node_gpus = j.require("node_gpus").integer(c.gpus_per_node, ranges::kMaxGpusPerNode);
  c.nics_per_node = j.require("nics_per_node").integer(1, ranges::kMaxGpusPerNode);
  std::vector<std::string> nics = nic_names();
  nics.emplace_back();  // "": rates without a catalog NIC
  c.nic = j.require("nic").choice("a NIC", nics);
  c.cpu = j.require("cpu").enumeration("a CPU vendor", {CpuVendor::intel, CpuVendor::amd});
  c.nic_bandwidth = Rate(j.require("nic_bandwidth_Bps").number(ranges::rate()));
  if (j.has("shared_cores")) c.shared_cores = j.require("shared_cores").integer(0, ranges::kMaxGpus);
  // Files written before the slowdown was modelled ran without it.
  c.compute_slowdown = j.has("compute_slowdown") ? j.require("compute_slowdown").number(ranges::slowdown()) : 0;
  c.compute_slowdown_given = true;
  c.transport = j.require("transport").enumeration("a transport", {Transport::tcp, Transport::rdma, Transport::efa});
  c.net = schedule_block_from(transport_fields(), j.require("net"));
  c.topology = topology_from(j.require("topology"));
  c.ps = schedule_block_from(parameter_server_fields(), j.require("parameter_server"));
  return c;
}

std::vector<std::string> allreduce_choices(bool with_auto) {
  std::vector<std::string> names;
  for (const auto* a : collectives::allreduce_algorithms()) names.push_back(a->name);
  if (with_auto) names.emplace_back(collectives::kAutomatic);
  return names;
}

collectives::nccl::NcclSettings nccl_from(const JsonReader& j) {
  namespace nccl = collectives::nccl;
  j.check_keys({"version", "algo", "proto", "nvls", "min_channels", "max_channels", "nvls_chunk_bytes", "nvls_tree_chunk_bytes",
                "buffsize_bytes", "pipeline_fill"});
  nccl::NcclSettings n;
  if (j.has("version")) {
    const JsonReader v = j.require("version");
    n.version = nccl::parse_nccl_version(v.string());
    if (n.version == 0) v.fail(nccl::nccl_version_syntax());
  }
  for (const auto& [key, algorithms] : {std::pair{"algo", true}, std::pair{"proto", false}}) {
    const JsonReader v = j.require(key);
    (algorithms ? n.algo : n.proto) = v.string();
    if (!nccl::valid_mask(v.string(), algorithms)) v.fail(nccl::mask_syntax(algorithms));
  }
  n.nvls = j.require("nvls").boolean();
  n.min_channels = j.require("min_channels").integer(0, nccl::kMaxChannels);
  n.max_channels = j.require("max_channels").integer(0, nccl::kMaxChannels);
  const Bound chunk = Bound::between(nccl::kMinChunk, nccl::kMaxChunk);
  n.nvls_chunk = j.require("nvls_chunk_bytes").number(chunk);
  Bound tree_chunk = chunk;
  tree_chunk.zero_allowed = true;
  n.nvls_tree_chunk = j.require("nvls_tree_chunk_bytes").number(tree_chunk);
  n.buffsize = j.require("buffsize_bytes").number(Bound::between(nccl::kMinBuffSize, nccl::kMaxBuffSize));
  if (j.has("pipeline_fill")) n.pipeline_fill = j.require("pipeline_fill").boolean();  // absent before
  return n;
}

Strategy strategy_from(const JsonReader& j) {
  j.check_keys({"method", "timing", "grouping", "bucket_bytes", "first_bucket_bytes", "cycle_s", "partition_bytes",
                "credit_bytes", "priority", "overlap_next_forward", "aggregation", "algorithm", "call_overhead_s",
                "node_local_reduce", "pull_requests", "key_hash", "host_staged", "library", "nccl", "sharding"});
  Strategy s;
  s.method = j.require("method").string();
  s.timing = j.require("timing").enumeration("a timing", {Timing::after_backward, Timing::as_ready});
  s.grouping = j.require("grouping").enumeration(
      "a grouping",
      {Grouping::per_tensor, Grouping::bucket, Grouping::fusion, Grouping::mgwfbp, Grouping::single, Grouping::unit});
  s.bucket_bytes = j.require("bucket_bytes").number(ranges::size_or_none());
  s.first_bucket_bytes = j.require("first_bucket_bytes").number(ranges::size_or_none());
  s.cycle_s = j.require("cycle_s").number(ranges::latency());
  s.partition_bytes = j.require("partition_bytes").number(ranges::size_or_none());
  s.credit_bytes = j.require("credit_bytes").number(ranges::size_or_none());
  s.priority = j.require("priority").boolean();
  s.overlap_next_forward = j.require("overlap_next_forward").boolean();
  s.aggregation = j.require("aggregation").enumeration(
      "an aggregation", {Aggregation::allreduce, Aggregation::parameter_server, Aggregation::root_reduce});
  s.algorithm = j.require("algorithm").choice("an all-reduce algorithm", allreduce_choices(true));
  s.call_overhead_s = j.require("call_overhead_s").number(ranges::latency());
  s.node_local_reduce = j.require("node_local_reduce").boolean();
  // Absent in schedules written before pull requests and key hashes were modelled: none then.
  if (j.has("pull_requests")) s.pull_requests = j.require("pull_requests").boolean();
  if (j.has("key_hash")) s.key_hash = j.require("key_hash").boolean();
  if (j.has("host_staged")) s.host_staged = j.require("host_staged").boolean();  // absent before FTlib
  // Absent before libraries were told apart: NCCL, which every preset but FTlib's runs.
  if (j.has("library"))
    s.library = parse_collective_library(j.require("library").choice("a collective library", {"nccl", "gloo"}));
  // Absent before runs took the scenario's NCCL settings: NCCL's defaults.
  if (j.has("nccl")) s.nccl = nccl_from(j.require("nccl"));
  if (j.has("sharding")) {
    const JsonReader sh = j.require("sharding");
    sh.check_keys({"state", "reshard_after_forward", "shard_in_node", "gathers_in_flight"});
    s.sharding = sh.require("state").enumeration(
        "a sharding", {Sharding::none, Sharding::optimizer, Sharding::gradients, Sharding::parameters});
    s.reshard_after_forward = sh.require("reshard_after_forward").boolean();
    s.shard_in_node = sh.require("shard_in_node").boolean();
    s.gathers_in_flight = sh.require("gathers_in_flight").integer(1, 64);
  }
  return s;
}

// The communication operations each strategy's schedules are made of.
std::vector<CommOp> ops_of(const Strategy& s) {
  if (s.sharding != Sharding::none) return {CommOp::allreduce, CommOp::all_gather, CommOp::reduce_scatter};
  switch (s.aggregation) {
    case Aggregation::allreduce: return {CommOp::allreduce};
    case Aggregation::parameter_server: return {CommOp::push, CommOp::pull};
    case Aggregation::root_reduce: return {CommOp::reduce, CommOp::broadcast};
  }
  return {};
}

class TaskReader {
 public:
  explicit TaskReader(const Schedule& s) : s_(s), servers_(s.cluster.ps.count(s.cluster.nodes, s.gpus())) {}

  // The task, and its name in `name`.
  Task read(const JsonReader& j, int index, std::string& name) const {
    const TaskIdentity identity = read_task_identity(j, index, s_.iterations, concat(kTaskKeys, kCommKeys),
                                                     concat(kTaskKeys, kComputeKeys));
    Task t;
    t.id = identity.id;
    t.kind = identity.kind;
    name = identity.name;
    t.iteration = identity.iteration;
    const bool comm = t.kind == TaskKind::comm;
    const JsonReader deps = j.require("deps");
    for (std::size_t i = 0; i < deps.size(); ++i)
      t.deps.push_back(deps.item(i).integer(0, index - 1));
    if (comm) {
      read_comm(j, t);
    } else {
      t.layer = t.kind == TaskKind::optimizer ? j.require("layer").integer(-1, -1)
                                               : j.require("layer").integer(0, kMaxLayer);
      t.duration_s = j.require("duration_s").number(ranges::compute_time());
    }
    return t;
  }

 private:
  void read_comm(const JsonReader& j, Task& t) const {
    std::vector<std::string> ops;
    for (CommOp op : ops_of(s_.strategy)) ops.push_back(to_string(op));
    t.op = parse_comm_op(j.require("op").choice("an operation of " + to_string(s_.strategy.aggregation), ops));
    if (t.op == CommOp::allreduce)
      t.algorithm = collectives::find_allreduce(
          j.require("algorithm").choice("a registered all-reduce algorithm", allreduce_choices(false)));
    else if (j.has("algorithm"))
      j.require("algorithm").fail("no algorithm on a " + to_string(t.op));
    t.bytes = j.require("bytes").number(ranges::size_or_none());
    t.first_layer = j.require("first_layer").integer(0, kMaxLayer);
    const JsonReader last = j.require("last_layer");
    t.last_layer = last.integer(0, kMaxLayer);
    if (t.last_layer < t.first_layer)
      last.fail("a layer no lower than first_layer (" + std::to_string(t.first_layer) + ")");
    t.tensors = j.require("tensors").integer(0, static_cast<int>(ranges::kMaxTensors));
    t.priority = j.require("priority").integer(0, std::numeric_limits<int>::max());
    const bool ps = t.op == CommOp::push || t.op == CommOp::pull;
    t.server = ps ? j.require("server").integer(0, servers_ - 1) : j.require("server").integer(-1, -1);
    t.delay_s = j.require("delay_s").number(ranges::latency());
    // Absent where every collective runs among all GPUs.
    if (j.has("group")) {
      const JsonReader group = j.require("group");
      t.group = parse_comm_group(group.choice("a group of GPUs", {"all", "node", "rail"}));
      const bool gathers = t.op == CommOp::all_gather || t.op == CommOp::reduce_scatter;
      if (t.group == CommGroup::rail ? t.op != CommOp::allreduce : t.group == CommGroup::node && !gathers)
        group.fail("a group its operation runs in (a node: all-gathers and reduce-scatters; a rail: all-reduces)");
    }
  }

  const Schedule& s_;
  int servers_;
};

// What no single field shows: every iteration holds a task, communication carries layers that
// compute tasks have, and each push comes back through one pull of its server and size.
void check_consistency(const JsonReader& root, const Schedule& s) {
  std::vector<bool> seen(s.iterations, false);
  int layers = 0;
  for (const Task& t : s.tasks) {
    seen[t.iteration] = true;
    if (t.kind == TaskKind::forward || t.kind == TaskKind::backward) layers = std::max(layers, t.layer + 1);
  }
  for (int i = 0; i < s.iterations; ++i)
    if (!seen[i])
      root.require("iterations").fail("as many iterations as the tasks have (iteration " + std::to_string(i) +
                                      " has none)");
  const JsonReader tasks = root.require("tasks");
  std::vector<int> pulled(s.tasks.size(), 0);
  for (const Task& t : s.tasks) {
    const JsonReader task = tasks.item(static_cast<std::size_t>(t.id));
    if (t.kind == TaskKind::comm && t.last_layer >= layers)
      task.require("last_layer").fail("a layer that compute tasks have (< " + std::to_string(layers) + ")");
    if (t.kind != TaskKind::comm || t.op != CommOp::pull) continue;
    const bool pairs = t.deps.size() == 1 && s.tasks[t.deps[0]].kind == TaskKind::comm &&
                       s.tasks[t.deps[0]].op == CommOp::push && s.tasks[t.deps[0]].server == t.server &&
                       s.tasks[t.deps[0]].bytes == t.bytes && pulled[t.deps[0]]++ == 0;
    if (!pairs) task.require("deps").fail("one push of the same server and bytes that no other pull follows");
  }
  for (const Task& t : s.tasks)
    if (t.kind == TaskKind::comm && t.op == CommOp::push && pulled[t.id] == 0)
      tasks.item(static_cast<std::size_t>(t.id)).require("op").fail("a push that a pull of the same server follows");
}

Schedule read_schedule(const JsonReader& j) {
  j.require("format").choice("a file format", {"scalecast-schedule"});
  const JsonReader version = j.require("version");
  if (version.integer(0, std::numeric_limits<int>::max()) != kScheduleFormatVersion)
    version.fail(std::to_string(kScheduleFormatVersion) + " (the version this scalecast reads)");
  j.check_keys({"format", "version", "scenario", "model", "sample_unit", "batch_per_gpu", "accumulation_steps", "gpus",
                "iterations", "cluster", "strategy", "tasks"});
  Schedule s;
  s.scenario = j.require("scenario").string();
  s.model = j.require("model").string();
  s.sample_unit = j.require("sample_unit").string();
  s.batch_per_gpu = j.require("batch_per_gpu").integer(1, ranges::kMaxBatch);
  if (j.has("accumulation_steps"))
    s.accumulation_steps = j.require("accumulation_steps").integer(1, ranges::kMaxAccumulation);
  s.iterations = j.require("iterations").integer(1, ranges::kMaxIterations);
  s.cluster = cluster_from(j.require("cluster"));
  s.strategy = strategy_from(j.require("strategy"));
  const JsonReader gpus = j.require("gpus");
  if (gpus.integer(1, ranges::kMaxGpus) != s.gpus())
    gpus.fail(std::to_string(s.gpus()) + " (cluster nodes x gpus_per_node)");
  const JsonReader tasks = j.require("tasks");
  const int count = static_cast<int>(std::min<std::size_t>(tasks.size(), std::numeric_limits<int>::max()));
  const TaskReader reader(s);
  std::unordered_map<std::string, int> names;  // each distinct name kept once
  for (int i = 0; i < count; ++i) {
    std::string name;
    Task t = reader.read(tasks.item(static_cast<std::size_t>(i)), i, name);
    const auto [it, added] = names.emplace(std::move(name), static_cast<int>(s.names.size()));
    if (added) s.names.push_back(it->first);
    t.name = it->second;
    s.tasks.push_back(std::move(t));
  }
  check_consistency(j, s);
  return s;
}

}  // namespace

ordered_json schedule_to_json(const Schedule& s) {
  ordered_json tasks = ordered_json::array();
  for (const Task& t : s.tasks) {
    ordered_json j = {{"id", t.id}, {"kind", to_string(t.kind)}, {"name", s.name_of(t)},
                      {"iteration", t.iteration}, {"deps", std::vector<int>(t.deps.begin(), t.deps.end())}};
    if (t.kind == TaskKind::comm) {
      j["op"] = to_string(t.op);
      if (t.algorithm) j["algorithm"] = t.algorithm->name;
      j["bytes"] = t.bytes;
      j["first_layer"] = t.first_layer;
      j["last_layer"] = t.last_layer;
      j["tensors"] = t.tensors;
      j["priority"] = t.priority;
      j["server"] = t.server;
      j["delay_s"] = t.delay_s;
      if (t.group != CommGroup::all) j["group"] = to_string(t.group);
    } else {
      j["layer"] = t.layer;
      j["duration_s"] = t.duration_s;
    }
    tasks.push_back(std::move(j));
  }
  nlohmann::ordered_json out = {{"format", "scalecast-schedule"},
                                 {"version", kScheduleFormatVersion},
                                 {"scenario", s.scenario},
                                 {"model", s.model},
                                 {"sample_unit", s.sample_unit},
                                 {"batch_per_gpu", s.batch_per_gpu}};
  // Written only where there is accumulation, so a file without it reads as it always did.
  if (s.accumulation_steps > 1) out["accumulation_steps"] = s.accumulation_steps;
  out["gpus"] = s.gpus();
  out["iterations"] = s.iterations;
  out["cluster"] = cluster_json(s.cluster);
  out["strategy"] = strategy_json(s.strategy);
  out["tasks"] = std::move(tasks);
  return out;
}

Schedule schedule_from_json(const json& j, const std::string& source) { return read_schedule(JsonReader(j, source)); }

Schedule read_schedule_file(const std::string& path) {
  return schedule_from_json(read_json_file(path, "a schedule file"), path);
}

}  // namespace scalecast
