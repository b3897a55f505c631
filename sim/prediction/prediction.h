// One prediction: a scenario's workload on N GPUs with one method through one backend, reduced
// to the figures users compare (iteration time, throughput, speedup, scaling efficiency).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "sim/backends/backend.h"
#include "sim/memory/memory_fit.h"
#include "sim/scenario/scenario.h"
#include "sim/backends/steady_state.h"
#include "sim/backends/work_estimate.h"
#include "sim/scenario/workload_builder.h"

namespace scalecast {

struct PredictionRow {
  std::string scenario, model, method, backend, sample_unit;
  int gpus = 0, nodes = 0, batch_per_gpu = 0;
  double iteration_s = 0;
  double throughput = 0;      // samples/s over all GPUs
  double speedup = 0;         // throughput / one GPU's throughput without communication
  double efficiency = 0;      // speedup / gpus
  double compute_s = 0;
  double exposed_comm_s = 0;
  // The hardware the row ran on: GPU, fabric, the network's line rate (B/s) and transport.
  std::string gpu, fabric, transport;
  double network_bandwidth = 0;
  std::string overrides;      // what was set from outside the scenario file ("key=value; ...")
  // The same, one entry per key path, in the order set (a sweep's keys among them); CSV and
  // JSON give each key a column.
  std::vector<std::pair<std::string, std::string>> settings;
  MemoryFit memory;           // per GPU; set by the caller from memory_fit() (JSON only)
  // The prediction interval when one was asked for (predict --interval): the central
  // interval_pct % of measured iteration times; 0 when none.
  double interval_pct = 0;
  double iteration_low_s = 0, iteration_high_s = 0;
  double throughput_low() const { return iteration_high_s > 0 ? throughput * iteration_s / iteration_high_s : 0; }
  double throughput_high() const { return iteration_low_s > 0 ? throughput * iteration_s / iteration_low_s : 0; }
};

struct PredictionRun {
  PredictionRow row;
  Schedule schedule;
  Timeline timeline;
};

// The schedule of one (method, gpus) run of a scenario over `iterations` iterations (0: the
// scenario's; kSteadyState: the first iteration and the next forward pass, unnamed, what the row
// needs);
// throws an InputError before building one larger than the limits allow.
inline constexpr int kSteadyState = -1;
Schedule schedule_for(const Scenario& scenario, const Workload& workload, const std::string& method,
                      int gpus, const WorkLimits& limits = {}, int iterations = 0);
// Also refuses a run whose backend would exceed the limits, before it starts. Simulates
// `iterations` as schedule_for() builds them (0 for a trace of the scenario's iterations); the
// row is simulated_steady_state() in every case, exact from the shortest schedule.
PredictionRun predict(const Scenario& scenario, const Workload& workload, const std::string& method,
                      int gpus, const Backend& backend, const WorkLimits& limits = {},
                      int iterations = kSteadyState);

}  // namespace scalecast
