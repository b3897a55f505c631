// Runs one (method, GPU count) of a scenario: size the cluster, build the schedule, run the
// backend, take the steady state and derive throughput, speedup and efficiency.
#include "sim/prediction/prediction.h"

#include <optional>

#include "sim/scenario/run_setup.h"
#include "sim/schedules/schedule_builder.h"
#include "sim/scheduling/compute_slowdown.h"
#include "sim/schedules/sharding/tensor_parallel.h"

namespace scalecast {

namespace {

std::string run_name(const std::string& method, int gpus) {
  return method + " on " + std::to_string(gpus) + " GPUs";
}

}  // namespace

Schedule schedule_for(const Scenario& s, const Workload& w, const std::string& method, int gpus,
                      const WorkLimits& limits, int iterations) {
  const bool steady = iterations == kSteadyState;
  const int n = steady ? 1 : iterations > 0 ? iterations : s.iterations;
  Cluster cluster = sized_for(s.cluster, gpus);
  const Strategy strategy = strategy_for(s, method);
  // Tensor parallelism: the schedule of one data-parallel replica's GPU, on the replicas' cluster.
  std::optional<TensorParallelRun> tp;
  if (strategy.tensor_parallel > 1) {
    // The activations a block's collectives carry are the products' outputs: half width at a
    // half-width precision, autocast's too.
    tp = tensor_parallel_run(w, cluster, strategy, half_width(s.model.precision) ? 2 : 4);
    cluster = tp->cluster;
  }
  const Workload& work = tp ? tp->workload : w;
  if (!cluster.compute_slowdown_given)
    cluster.compute_slowdown = scheduling::slowdown_from_held_sms(cluster, strategy);
  check_work(estimate_schedule(work, cluster, strategy, n + (steady ? 1 : 0)), limits, run_name(method, gpus));
  return build_schedule(work, cluster, strategy, ScheduleShape{n, steady, !steady}, s.name);
}

PredictionRun predict(const Scenario& s, const Workload& w, const std::string& method, int gpus,
                      const Backend& backend, const WorkLimits& limits, int iterations) {
  PredictionRun run;
  run.schedule = schedule_for(s, w, method, gpus, limits, iterations);
  check_work(estimate_run(run.schedule, backend), limits, run_name(method, gpus));
  run.timeline = backend.run(run.schedule);
  const IterationStats st = simulated_steady_state(run.schedule, run.timeline);
  PredictionRow& r = run.row;
  r.scenario = s.name;
  r.model = w.model;
  r.method = method;
  r.backend = backend.name();
  r.sample_unit = w.sample_unit;
  r.gpus = gpus;
  r.nodes = run.schedule.cluster.nodes;
  r.gpu = run.schedule.cluster.gpu;
  r.fabric = run.schedule.cluster.fabric.kind;
  r.transport = to_string(run.schedule.cluster.transport);
  r.network_bandwidth = s.cluster.nic_bandwidth.bytes_per_s();
  r.batch_per_gpu = w.batch_per_gpu;
  r.iteration_s = st.iteration_s;
  r.compute_s = st.compute_s;
  r.exposed_comm_s = st.exposed_comm_s;
  // Each data-parallel replica (a tensor-parallel group of GPUs) takes its own samples.
  r.throughput = static_cast<double>(run.schedule.gpus()) * w.samples_per_step() / st.iteration_s;
  r.speedup = r.throughput / (w.samples_per_step() / w.compute_s());
  r.efficiency = r.speedup / gpus;
  return run;
}

}  // namespace scalecast
