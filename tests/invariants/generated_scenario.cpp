// The scenario generator and the invariant checks shared by the analytical and SimGrid suites.
#include "tests/invariants/generated_scenario.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "sim/types/cluster.h"
#include "sim/collectives/allreduce_algorithm.h"
#include "sim/catalogs/gpu_catalog.h"
#include "sim/types/strategy.h"
#include "sim/zoo/zoo.h"

namespace scalecast::invariants {
namespace {

int between(std::mt19937_64& rng, int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); }

// log-uniform in [lo, hi]
double log_between(std::mt19937_64& rng, double lo, double hi) {
  return std::exp(std::uniform_real_distribution<double>(std::log(lo), std::log(hi))(rng));
}

}  // namespace

std::string GeneratedCase::command() const {
  return "scalecast predict case.yaml -m " + method + " -g " + std::to_string(gpus);
}

GeneratedCase generate_case(std::mt19937_64& rng, int index, const Bounds& b) {
  std::vector<std::string> models = b.models;
  // The zoo's billion-parameter LLMs (LLaMA-2-7B's 27 GB of gradients) make thousands of
  // partitions, seconds per PS prediction and several minutes for the suite; the by-shape gpt
  // and llama stand for their families here.
  if (models.empty())
    for (const auto& m : zoo::list_models())
      if (!m.required_shape_keys.empty() || zoo::build_model(m.name, zoo::ModelOptions{}).parameters() < 1'000'000'000)
        models.push_back(m.name);
  std::vector<std::string> gpus;
  for (const auto& g : gpu_catalog()) gpus.push_back(g.name);
  std::vector<std::string> methods;
  for (const auto& p : list_presets()) methods.push_back(p.name);
  std::vector<std::string> algorithms = {"auto"};
  // NCCL's own choice is "auto" for NCCL's methods (named, it is refused for Gloo's).
  for (const auto* a : collectives::allreduce_algorithms())
    if (!a->library_choice) algorithms.emplace_back(a->name);

  GeneratedCase c;
  c.method = pick(rng, methods);
  const int per_node = pick(rng, std::vector<int>{1, 2, 4, 8});
  // 1..max GPUs, log-uniform: a part of one node, or whole nodes.
  const int want = std::max(1, static_cast<int>(std::lround(log_between(rng, 1, b.max_gpus))));
  c.gpus = want < per_node ? want : std::max(1, want / per_node) * per_node;
  const int nodes = c.gpus <= per_node ? 1 : c.gpus / per_node;
  const bool tcp = chance(rng, 0.5);
  std::ostringstream y;
  const std::string model = pick(rng, models);
  y << "name: invariant-" << index << "\n"
    << "model:\n  name: " << model << "\n  batch_per_gpu: " << between(rng, 1, 128) << "\n"
    << "  precision: " << pick(rng, std::vector<std::string>{"fp32", "tf32", "fp16"}) << "\n"
    << "  optimizer: " << pick(rng, std::vector<std::string>{"sgd", "adam"}) << "\n";
  // A small decoder for the models built by shape.
  const std::map<std::string, std::string> shape = {
      {"layers", "2"},   {"hidden", "256"},       {"heads", "4"},
      {"kv_heads", "2"}, {"intermediate", "688"}, {"tied_embeddings", "true"}, {"dropout", "true"},
      {"head", "pretraining"}, {"mlm_positions", "20"}};
  for (const auto& key : zoo::model_info(model)->shape_keys)
    y << "  " << key << ": " << shape.at(key) << "\n";
  y << "gpu:\n  type: " << pick(rng, gpus) << "\n";
  if (chance(rng, 0.3)) y << "  single_gpu_throughput: " << log_between(rng, 1, 5000) << "\n";
  y << "cluster:\n  gpus_per_node: " << per_node << "\n  fabric: " << pick(rng, fabric_kinds()) << "\n"
    << "  network:\n    bandwidth: " << log_between(rng, 1, 400) << "Gbps\n"
    << "    transport: " << (tcp ? "tcp" : "rdma") << "\n";
  if (!tcp && chance(rng, 0.3)) y << "    gpudirect: false\n";
  if (nodes > 2 && chance(rng, 0.3)) {
    const int per_leaf = between(rng, 1, nodes - 1);
    y << "  topology:\n    kind: leaf-spine\n    nodes_per_leaf: " << per_leaf
      << "\n    oversubscription: " << log_between(rng, 1, 8) << "\n";
  }
  y << "  parameter_server:\n    placement: " << (chance(rng, 0.5) ? "dedicated" : "colocated") << "\n";
  if (chance(rng, 0.5)) y << "    servers: " << between(rng, 1, std::max(1, 2 * nodes)) << "\n";
  y << "strategy:\n  allreduce: " << pick(rng, algorithms) << "\n";
  if (chance(rng, 0.4)) y << "  partition_size: " << std::lround(log_between(rng, 64e3, 64e6)) << "B\n";
  if (chance(rng, 0.4)) y << "  credit: " << std::lround(log_between(rng, 64e3, 256e6)) << "B\n";
  if (chance(rng, 0.2)) y << "  bucket_size: " << std::lround(log_between(rng, 1e6, 256e6)) << "B\n";
  y << "methods: [" << c.method << "]\ngpus: [" << c.gpus << "]\niterations: " << b.iterations << "\n";
  c.yaml = y.str();
  return c;
}

std::vector<std::string> violations(const PredictionRun& run, const Workload& w) {
  std::vector<std::string> out;
  const PredictionRow& r = run.row;
  auto bad = [&](const std::string& what) { out.push_back(what); };
  if (!(std::isfinite(r.iteration_s) && r.iteration_s > 0)) bad("iteration time " + std::to_string(r.iteration_s));
  if (!(std::isfinite(r.throughput) && r.throughput > 0)) bad("throughput " + std::to_string(r.throughput));
  for (const TimelineEvent& e : run.timeline.events) {
    if (!(std::isfinite(e.start_s) && std::isfinite(e.end_s) && e.start_s >= 0 && e.end_s >= e.start_s)) {
      bad("event of task " + std::to_string(e.task) + " (" + run.schedule.name_of(run.schedule.tasks.at(e.task)) + ") from " +
          std::to_string(e.start_s) + " to " + std::to_string(e.end_s) + " s");
      break;
    }
  }
  if (run.timeline.events.size() != run.schedule.tasks.size())
    bad(std::to_string(run.timeline.events.size()) + " events for " + std::to_string(run.schedule.tasks.size()) +
        " tasks");
  // No prediction beats a GPU that never communicates.
  const double tolerance = 1e-9;
  if (r.iteration_s < r.compute_s * (1 - tolerance))
    bad("iteration " + std::to_string(r.iteration_s) + " s is shorter than one GPU's compute " +
        std::to_string(r.compute_s) + " s");
  // A GPU's own compute in this run (a sharded method steps on its shard of the state only).
  const double single = w.samples_per_step() / r.compute_s;
  if (r.throughput > r.gpus * single * (1 + tolerance))
    bad("throughput " + std::to_string(r.throughput) + " exceeds " + std::to_string(r.gpus) + " GPUs x " +
        std::to_string(single));
  return out;
}

std::string save_case(const GeneratedCase& c, const std::string& name) {
  const auto path = std::filesystem::path(::testing::TempDir()) / (name + ".yaml");
  std::ofstream(path) << "# reproduce: " << c.command() << "\n" << c.yaml;
  return path.string();
}

int case_count(int default_count) {
  if (const char* v = std::getenv("SCALECAST_INVARIANT_CASES")) return std::max(1, std::atoi(v));
  if (const char* v = std::getenv("SCALECAST_INVARIANT_SHARE"))
    return std::max(1, static_cast<int>(std::lround(default_count * std::clamp(std::atof(v), 0.0, 1.0))));
  return default_count;
}

std::uint64_t seed() {
  const char* v = std::getenv("SCALECAST_INVARIANT_SEED");
  return v ? std::strtoull(v, nullptr, 10) : 20261123;
}

}  // namespace scalecast::invariants
