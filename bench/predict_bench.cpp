// Cost of one analytical prediction row (schedule build + backend + steady state) per strategy on
// the ResNet-50 10GbE scenario at 32 GPUs and at 256 and 1024 GPUs, of the ddl-benchmarks grid, and
// of sharded data parallel on Llama-2-7B (8 to 1024 H100s).
#include <benchmark/benchmark.h>

#include "sim/backends/analytical/analytical_backend.h"
#include "sim/prediction/prediction.h"
#include "sim/types/strategy.h"

namespace {

using namespace scalecast;

const Scenario& resnet_scenario() {
  static const Scenario s =
      load_scenario(std::string(SCALECAST_SOURCE_DIR) + "/scenarios/ddl-resnet50-10gbe.yaml");
  return s;
}

void BM_PredictOne(benchmark::State& state, const std::string& method) {
  const Scenario& s = resnet_scenario();
  const BuiltWorkload w = build_workload(s);
  const AnalyticalBackend backend;
  for (auto _ : state) benchmark::DoNotOptimize(predict(s, w.workload, method, 32, backend).row);
  state.SetLabel("resnet50, 32 GPUs, one row (steady state)");
}

void BM_PredictAtScale(benchmark::State& state, const std::string& method) {
  const Scenario& s = resnet_scenario();
  const BuiltWorkload w = build_workload(s);
  const AnalyticalBackend backend;
  const int gpus = static_cast<int>(state.range(0));
  for (auto _ : state) benchmark::DoNotOptimize(predict(s, w.workload, method, gpus, backend).row);
  state.SetLabel("resnet50, one row (steady state)");
}

void BM_PredictSharded(benchmark::State& state, const std::string& method) {
  static const Scenario s =
      load_scenario(std::string(SCALECAST_SOURCE_DIR) + "/scenarios/whatif-llama2-7b-fsdp-h100.yaml");
  const BuiltWorkload w = build_workload(s);
  const AnalyticalBackend backend;
  const int gpus = static_cast<int>(state.range(0));
  for (auto _ : state) benchmark::DoNotOptimize(predict(s, w.workload, method, gpus, backend).row);
  state.SetLabel("llama2-7b, 4 micro-batches a step, one row (steady state)");
}

void BM_DdlGrid(benchmark::State& state) {
  std::vector<Scenario> scenarios;
  for (const char* name : {"ddl-resnet50-10gbe", "ddl-resnet50-100gbib", "ddl-bert-base-10gbe",
                           "ddl-bert-base-100gbib", "ddl-bert-large-10gbe", "ddl-bert-large-100gbib"})
    scenarios.push_back(load_scenario(std::string(SCALECAST_SOURCE_DIR) + "/scenarios/" + name + ".yaml"));
  const AnalyticalBackend backend;
  for (auto _ : state) {
    for (const Scenario& s : scenarios) {
      const BuiltWorkload w = build_workload(s);
      for (const auto& m : s.methods)
        for (int g : s.gpus) benchmark::DoNotOptimize(predict(s, w.workload, m, g, backend).row);
    }
  }
  state.SetLabel("6 scenarios x 7 methods x 4 GPU counts");
}

}  // namespace

BENCHMARK_CAPTURE(BM_PredictOne, bsp_allreduce, std::string("bsp-allreduce"))->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_PredictOne, wfbp_allreduce, std::string("wfbp-allreduce"))->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_PredictOne, mgwfbp, std::string("mgwfbp"))->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_PredictOne, ddp, std::string("ddp"))->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_PredictOne, horovod, std::string("horovod"))->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_PredictOne, bytescheduler_allreduce, std::string("bytescheduler-allreduce"))
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_PredictOne, bsp_ps, std::string("bsp-ps"))->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_PredictOne, wfbp_ps, std::string("wfbp-ps"))->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_PredictOne, bytescheduler_ps, std::string("bytescheduler-ps"))->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_PredictOne, bytescheduler_mxnet_ps, std::string("bytescheduler-mxnet-ps"))
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_PredictOne, distml_allreduce, std::string("distml-allreduce"))->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_PredictAtScale, wfbp_allreduce, std::string("wfbp-allreduce"))
    ->Arg(256)->Arg(1024)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_PredictAtScale, bsp_ps, std::string("bsp-ps"))->Arg(256)->Arg(1024)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_PredictSharded, fsdp, std::string("fsdp"))->Arg(8)->Arg(1024)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_PredictSharded, fsdp_hybrid, std::string("fsdp-hybrid"))->Arg(1024)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_DdlGrid)->Unit(benchmark::kMillisecond);
BENCHMARK_MAIN();
