// Writing and strictly reading schedule JSON: cluster, strategy and tasks with dependencies.
// Dependencies must point to earlier tasks, so a valid file is always a DAG in task order.
#include "sim/schedule_json.h"

#include <fstream>

#include "sim/collectives/algorithm_choice.h"

namespace scalecast {
namespace {

using nlohmann::json;
using nlohmann::ordered_json;

ordered_json cluster_json(const Cluster& c) {
  return {{"gpu", c.gpu},
          {"nodes", c.nodes},
          {"gpus_per_node", c.gpus_per_node},
          {"fabric",
           {{"kind", c.fabric.kind},
            {"link_bandwidth_Bps", c.fabric.link_bandwidth},
            {"latency_s", c.fabric.latency_s},
            {"bridge_bandwidth_Bps", c.fabric.bridge_bandwidth}}},
          {"nic_bandwidth_Bps", c.nic_bandwidth},
          {"transport", to_string(c.transport)},
          {"net",
           {{"latency_s", c.net.latency_s},
            {"efficiency", c.net.efficiency},
            {"stream_bandwidth_Bps", c.net.stream_bandwidth},
            {"streams", c.net.streams},
            {"host_staging_bandwidth_Bps", c.net.host_staging_bandwidth},
            {"call_overhead_s", c.net.call_overhead_s},
            {"size_curve", c.net.size_curve.anchors()},
            {"in_order_connections", c.net.in_order_connections}}},
          {"topology",
           {{"kind", to_string(c.topology.kind)},
            {"nodes_per_leaf", c.topology.nodes_per_leaf},
            {"oversubscription", c.topology.oversubscription}}},
          {"parameter_server",
           {{"placement", to_string(c.ps.placement)},
            {"servers", c.ps.servers},
            {"gpus_per_server", c.ps.gpus_per_server},
            {"nic_bandwidth_Bps", c.ps.nic_bandwidth}}}};
}

ordered_json strategy_json(const Strategy& s) {
  return {{"method", s.method},
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
          {"node_local_reduce", s.node_local_reduce}};
}

class Reader {
 public:
  explicit Reader(std::string source) : source_(std::move(source)) {}

  [[noreturn]] void fail(const std::string& where, const std::string& what) const {
    throw ScheduleError(source_ + ": " + where + ": " + what);
  }

  const json& field(const json& obj, const char* key, const std::string& where) const {
    if (!obj.is_object()) fail(where, "expected an object");
    auto it = obj.find(key);
    if (it == obj.end()) fail(where + "." + key, "missing");
    return *it;
  }

  template <typename T>
  T get(const json& obj, const char* key, const std::string& where) const {
    const json& v = field(obj, key, where);
    try {
      return v.get<T>();
    } catch (const json::exception&) {
      fail(where + "." + key, "wrong type (" + std::string(v.type_name()) + ")");
    }
  }

  double non_negative(const json& obj, const char* key, const std::string& where) const {
    const double v = get<double>(obj, key, where);
    if (!(v >= 0)) fail(where + "." + key, "expected a non-negative number");
    return v;
  }

 private:
  std::string source_;
};

Cluster cluster_from(const Reader& r, const json& j) {
  Cluster c;
  const std::string w = "cluster";
  c.gpu = r.get<std::string>(j, "gpu", w);
  c.nodes = r.get<int>(j, "nodes", w);
  c.gpus_per_node = r.get<int>(j, "gpus_per_node", w);
  if (c.nodes < 1 || c.gpus_per_node < 1) r.fail(w, "nodes and gpus_per_node must be positive");
  const json& f = r.field(j, "fabric", w);
  c.fabric = {r.get<std::string>(f, "kind", w + ".fabric"),
              r.non_negative(f, "link_bandwidth_Bps", w + ".fabric"),
              r.non_negative(f, "latency_s", w + ".fabric"),
              r.non_negative(f, "bridge_bandwidth_Bps", w + ".fabric")};
  c.nic_bandwidth = r.non_negative(j, "nic_bandwidth_Bps", w);
  try {
    c.transport = parse_transport(r.get<std::string>(j, "transport", w));
  } catch (const std::invalid_argument& e) {
    r.fail(w + ".transport", e.what());
  }
  const json& n = r.field(j, "net", w);
  const std::string wn = w + ".net";
  c.net.latency_s = r.non_negative(n, "latency_s", wn);
  c.net.efficiency = r.non_negative(n, "efficiency", wn);
  c.net.stream_bandwidth = r.non_negative(n, "stream_bandwidth_Bps", wn);
  c.net.streams = r.get<int>(n, "streams", wn);
  c.net.host_staging_bandwidth = r.non_negative(n, "host_staging_bandwidth_Bps", wn);
  c.net.call_overhead_s = r.non_negative(n, "call_overhead_s", wn);
  c.net.in_order_connections = r.get<bool>(n, "in_order_connections", wn);
  try {
    c.net.size_curve = SizeCurve(r.get<std::vector<std::pair<double, double>>>(n, "size_curve", wn));
  } catch (const std::invalid_argument& e) {
    r.fail(wn + ".size_curve", e.what());
  }
  const json& t = r.field(j, "topology", w);
  try {
    c.topology.kind = parse_topology_kind(r.get<std::string>(t, "kind", w + ".topology"));
  } catch (const std::invalid_argument& e) {
    r.fail(w + ".topology.kind", e.what());
  }
  c.topology.nodes_per_leaf = r.get<int>(t, "nodes_per_leaf", w + ".topology");
  c.topology.oversubscription = r.non_negative(t, "oversubscription", w + ".topology");
  const json& p = r.field(j, "parameter_server", w);
  const std::string wp = w + ".parameter_server";
  try {
    c.ps.placement = parse_placement(r.get<std::string>(p, "placement", wp));
  } catch (const std::invalid_argument& e) {
    r.fail(wp + ".placement", e.what());
  }
  c.ps.servers = r.get<int>(p, "servers", wp);
  c.ps.gpus_per_server = r.get<int>(p, "gpus_per_server", wp);
  c.ps.nic_bandwidth = r.non_negative(p, "nic_bandwidth_Bps", wp);
  return c;
}

Strategy strategy_from(const Reader& r, const json& j) {
  Strategy s;
  const std::string w = "strategy";
  s.method = r.get<std::string>(j, "method", w);
  s.bucket_bytes = r.non_negative(j, "bucket_bytes", w);
  s.first_bucket_bytes = r.non_negative(j, "first_bucket_bytes", w);
  s.cycle_s = r.non_negative(j, "cycle_s", w);
  s.partition_bytes = r.non_negative(j, "partition_bytes", w);
  s.credit_bytes = r.non_negative(j, "credit_bytes", w);
  s.priority = r.get<bool>(j, "priority", w);
  s.overlap_next_forward = r.get<bool>(j, "overlap_next_forward", w);
  s.call_overhead_s = r.non_negative(j, "call_overhead_s", w);
  s.node_local_reduce = r.get<bool>(j, "node_local_reduce", w);
  s.algorithm = r.get<std::string>(j, "algorithm", w);
  try {
    collectives::check_allreduce_choice(s.algorithm);
  } catch (const std::invalid_argument& e) {
    r.fail(w + ".algorithm", e.what());
  }
  const std::string agg = r.get<std::string>(j, "aggregation", w);
  bool known = false;
  for (Aggregation a : {Aggregation::allreduce, Aggregation::parameter_server, Aggregation::root_reduce})
    if (to_string(a) == agg) {
      s.aggregation = a;
      known = true;
    }
  if (!known) r.fail(w + ".aggregation", "unknown aggregation '" + agg + "'");
  const std::string timing = r.get<std::string>(j, "timing", w);
  if (timing != to_string(Timing::as_ready) && timing != to_string(Timing::after_backward))
    r.fail(w + ".timing", "unknown timing '" + timing + "'");
  s.timing = timing == to_string(Timing::as_ready) ? Timing::as_ready : Timing::after_backward;
  return s;
}

Task task_from(const Reader& r, const json& j, int index, int iterations) {
  const std::string w = "tasks[" + std::to_string(index) + "]";
  Task t;
  t.id = r.get<int>(j, "id", w);
  if (t.id != index) r.fail(w + ".id", "expected " + std::to_string(index));
  try {
    t.kind = parse_task_kind(r.get<std::string>(j, "kind", w));
  } catch (const std::invalid_argument& e) {
    r.fail(w + ".kind", e.what());
  }
  t.name = r.get<std::string>(j, "name", w);
  t.iteration = r.get<int>(j, "iteration", w);
  if (t.iteration < 0 || t.iteration >= iterations) r.fail(w + ".iteration", "out of range");
  t.deps = r.get<std::vector<int>>(j, "deps", w);
  for (int d : t.deps)
    if (d < 0 || d >= index) r.fail(w + ".deps", "dependency " + std::to_string(d) + " is not an earlier task");
  if (t.kind == TaskKind::comm) {
    try {
      t.op = parse_comm_op(r.get<std::string>(j, "op", w));
    } catch (const std::invalid_argument& e) {
      r.fail(w + ".op", e.what());
    }
    if (t.op == CommOp::allreduce) {
      const std::string name = r.get<std::string>(j, "algorithm", w);
      t.algorithm = collectives::find_allreduce(name);
      if (!t.algorithm)
        r.fail(w + ".algorithm", "expected a registered all-reduce algorithm (" +
                                     collectives::allreduce_names(false) + "), got '" + name + "'");
    }
    t.bytes = r.non_negative(j, "bytes", w);
    t.first_layer = r.get<int>(j, "first_layer", w);
    t.last_layer = r.get<int>(j, "last_layer", w);
    t.tensors = r.get<int>(j, "tensors", w);
    t.priority = r.get<int>(j, "priority", w);
    t.server = r.get<int>(j, "server", w);
    t.delay_s = r.non_negative(j, "delay_s", w);
  } else {
    t.layer = r.get<int>(j, "layer", w);
    t.duration_s = r.non_negative(j, "duration_s", w);
  }
  return t;
}

}  // namespace

ordered_json schedule_to_json(const Schedule& s) {
  ordered_json tasks = ordered_json::array();
  for (const Task& t : s.tasks) {
    ordered_json j = {{"id", t.id}, {"kind", to_string(t.kind)}, {"name", t.name},
                      {"iteration", t.iteration}, {"deps", t.deps}};
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
    } else {
      j["layer"] = t.layer;
      j["duration_s"] = t.duration_s;
    }
    tasks.push_back(std::move(j));
  }
  return {{"format", "scalecast-schedule"},
          {"version", kScheduleFormatVersion},
          {"scenario", s.scenario},
          {"model", s.model},
          {"sample_unit", s.sample_unit},
          {"batch_per_gpu", s.batch_per_gpu},
          {"gpus", s.gpus()},
          {"iterations", s.iterations},
          {"cluster", cluster_json(s.cluster)},
          {"strategy", strategy_json(s.strategy)},
          {"tasks", std::move(tasks)}};
}

Schedule schedule_from_json(const json& j, const std::string& source) {
  Reader r(source);
  if (r.get<std::string>(j, "format", "schedule") != "scalecast-schedule")
    r.fail("format", "not a scalecast schedule");
  if (r.get<int>(j, "version", "schedule") != kScheduleFormatVersion)
    r.fail("version", "expected " + std::to_string(kScheduleFormatVersion));
  Schedule s;
  s.scenario = r.get<std::string>(j, "scenario", "schedule");
  s.model = r.get<std::string>(j, "model", "schedule");
  s.sample_unit = r.get<std::string>(j, "sample_unit", "schedule");
  s.batch_per_gpu = r.get<int>(j, "batch_per_gpu", "schedule");
  s.iterations = r.get<int>(j, "iterations", "schedule");
  if (s.iterations < 1) r.fail("iterations", "expected at least 1");
  s.cluster = cluster_from(r, r.field(j, "cluster", "schedule"));
  s.strategy = strategy_from(r, r.field(j, "strategy", "schedule"));
  if (r.get<int>(j, "gpus", "schedule") != s.gpus())
    r.fail("gpus", "does not match cluster.nodes x cluster.gpus_per_node");
  const json& tasks = r.field(j, "tasks", "schedule");
  if (!tasks.is_array()) r.fail("tasks", "expected an array");
  for (size_t i = 0; i < tasks.size(); ++i)
    s.tasks.push_back(task_from(r, tasks[i], static_cast<int>(i), s.iterations));
  return s;
}

Schedule read_schedule_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw ScheduleError(path + ": cannot open the schedule file");
  json j;
  try {
    j = json::parse(in);
  } catch (const json::parse_error& e) {
    throw ScheduleError(path + ": not valid JSON (" + std::string(e.what()) + ")");
  }
  return schedule_from_json(j, path);
}

}  // namespace scalecast
