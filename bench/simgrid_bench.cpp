// Cost and scale of the SimGrid replay: wall time and peak memory of one steady-state ResNet-50
// iteration (wfbp all-reduce) at 32 to 1024 GPUs and on 8192 H100s, and what its folds cost.
#include <benchmark/benchmark.h>

#include <chrono>
#include <cmath>
#include <string>
#include <vector>

#include "sim/backends/analytical/analytical_backend.h"
#include "sim/compute/compute_model.h"
#include "sim/prediction/prediction.h"
#include "sim/backends/simgrid/replay_backend.h"
#include "sim/backends/steady_state.h"
#include "sim/zoo/zoo.h"

namespace {

using namespace scalecast;
using simgrid_backend::ExpansionMode;

// ResNet-50, batch 64 per GPU, compute-model times on a V100-PCIe.
const Workload& resnet50() {
  static const Workload w = [] {
    Workload out = zoo::build_model("resnet50", {});
    out.batch_per_gpu = 64;
    apply_compute_model(out, find_gpu("v100-pcie"), {});
    return out;
  }();
  return w;
}

// The ddl-benchmarks testbed (4 GPUs per node): 10GbE kernel TCP as in its scenario file, or
// the same nodes with 100 Gb RDMA NICs. Two iterations: the second is the steady state.
Scenario testbed(bool rdma) {
  std::vector<std::string> sets;
  if (rdma) sets = {"cluster.network.bandwidth=100Gbps", "cluster.network.transport=rdma"};
  Scenario s =
      load_scenario(std::string(SCALECAST_SOURCE_DIR) + "/scenarios/ddl-resnet50-10gbe.yaml", sets);
  s.iterations = 2;
  return s;
}

struct Run {
  double iteration_s = 0;
  simgrid_backend::ReplayStats stats;
};

Run replay(const Schedule& schedule, ExpansionMode mode) {
  simgrid_backend::ReplayOptions options;
  options.expansion = mode;
  const auto r = SimgridBackend(options).run_with_stats(schedule);
  return {steady_state(schedule, r.timeline).iteration_s, r.stats};
}

// Wall time (fork and result transfer included) and peak memory of the simulating process.
void BM_SimgridResNet50(benchmark::State& state, bool rdma) {
  const int gpus = static_cast<int>(state.range(0));
  const Schedule schedule = schedule_for(testbed(rdma), resnet50(), "wfbp-allreduce", gpus);
  Run run;
  for (auto _ : state) {
    const auto start = std::chrono::steady_clock::now();
    run = replay(schedule, ExpansionMode::automatic);
    state.SetIterationTime(
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  const double analytical = steady_state(schedule, AnalyticalBackend().run(schedule)).iteration_s;
  state.counters["peak_rss_MB"] = run.stats.peak_rss_mb;
  state.counters["iteration_s"] = run.iteration_s;
  state.counters["analytical_s"] = analytical;
  state.counters["flows"] = static_cast<double>(run.stats.transfers_simulated);
  state.counters["transfers"] = static_cast<double>(run.stats.transfers_expanded);
  state.SetLabel(std::string(rdma ? "100Gb rdma" : "10GbE tcp") +
                 (run.stats.reduced ? ", reduced" : ", full"));
}

// ResNet-50 WFBP on 1024 nodes of 8 x H100 with eight NDR rails (scenarios/whatif-h100-resnet50-8192.yaml,
// NCCL's own choice), folded as `predict --backend simgrid` runs it, against the analytical backend.
void BM_SimgridH100ResNet50(benchmark::State& state) {
  const int gpus = static_cast<int>(state.range(0));
  Scenario s = load_scenario(std::string(SCALECAST_SOURCE_DIR) + "/scenarios/whatif-h100-resnet50-8192.yaml");
  s.iterations = 2;
  Workload w = zoo::build_model("resnet50", {});
  w.batch_per_gpu = 64;
  apply_compute_model(w, find_gpu("h100"), {});
  const Schedule schedule = schedule_for(s, w, "wfbp-allreduce", gpus);
  Run run;
  for (auto _ : state) {
    const auto start = std::chrono::steady_clock::now();
    run = replay(schedule, ExpansionMode::automatic);
    state.SetIterationTime(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  state.counters["peak_rss_MB"] = run.stats.peak_rss_mb;
  state.counters["iteration_s"] = run.iteration_s;
  state.counters["analytical_s"] = steady_state(schedule, AnalyticalBackend().run(schedule)).iteration_s;
  state.counters["flows"] = static_cast<double>(run.stats.transfers_simulated);
  state.SetLabel(std::string("8-rail NDR H100, NCCL's choice") + (run.stats.reduced ? ", folded" : ", full"));
}

// Accuracy cost of the reductions: the reduced replay against the full one, same schedule.
void BM_SimgridReductionCost(benchmark::State& state, bool rdma) {
  const int gpus = static_cast<int>(state.range(0));
  const Schedule schedule = schedule_for(testbed(rdma), resnet50(), "wfbp-allreduce", gpus);
  Run full, reduced;
  for (auto _ : state) {
    full = replay(schedule, ExpansionMode::full);
    reduced = replay(schedule, ExpansionMode::reduced);
  }
  state.counters["full_s"] = full.iteration_s;
  state.counters["reduced_s"] = reduced.iteration_s;
  state.counters["rel_error"] = std::abs(reduced.iteration_s / full.iteration_s - 1);
  state.counters["full_wall_s"] = full.stats.wall_s;
  state.counters["reduced_wall_s"] = reduced.stats.wall_s;
  state.SetLabel(rdma ? "100Gb rdma" : "10GbE tcp");
}

}  // namespace

BENCHMARK_CAPTURE(BM_SimgridResNet50, tcp_10gbe, false)
    ->Arg(32)
    ->Arg(256)
    ->Arg(1024)
    ->Iterations(1)
    ->UseManualTime()
    ->Unit(benchmark::kSecond);
BENCHMARK_CAPTURE(BM_SimgridResNet50, rdma_100gb, true)
    ->Arg(32)
    ->Arg(256)
    ->Arg(1024)
    ->Iterations(1)
    ->UseManualTime()
    ->Unit(benchmark::kSecond);
BENCHMARK(BM_SimgridH100ResNet50)->Arg(8192)->Iterations(1)->UseManualTime()->Unit(benchmark::kSecond);
BENCHMARK_CAPTURE(BM_SimgridReductionCost, tcp_10gbe, false)
    ->Arg(32)
    ->Arg(256)
    ->Iterations(1)
    ->Unit(benchmark::kSecond);
BENCHMARK_CAPTURE(BM_SimgridReductionCost, rdma_100gb, true)
    ->Arg(32)
    ->Arg(256)
    ->Iterations(1)
    ->Unit(benchmark::kSecond);
BENCHMARK_MAIN();
