// `scalecast execute`: runs a schedule for real as one process per rank (or a collective sweep),
// and on rank 0 writes the measured timeline in the backends' format; compiles in with the executor.
#ifdef SCALECAST_HAVE_EXECUTOR

#include <fmt/format.h>
#include <iostream>

#include "cli/command.h"
#include "cli/common.h"
#include "executor/local_launcher.h"
#include "executor/session.h"
#include "executor/sweep.h"
#include "executor/transports.h"
#include "sim/collectives/algorithm_choice.h"
#include "sim/io/input_error.h"
#include "sim/network/link_capacities.h"
#include "sim/report/chrome_trace.h"
#include "sim/report/text_table.h"
#include "sim/scenario/run_setup.h"
#include "sim/scenario/scenario.h"
#include "sim/backends/steady_state.h"
#include "sim/formats/timeline_json.h"
#include "sim/io/units.h"

namespace scalecast::cli {
namespace {

using executor::SweepOp;

// What the analytical model predicts for each size, on the scenario's cluster with `ranks`
// single-GPU nodes: the all-reduce cost (the library's own through NCCL: NCCL's model, the one
// `collective` and training use; else the expansion's closed form), or one alpha-beta transfer
// for sendrecv.
void predict_sweep(executor::SweepResult& r, const std::string& scenario_path, const std::vector<std::string>& sets) {
  const Scenario s = load_scenario(scenario_path, sets);
  Cluster c = s.cluster;
  c.nodes = nodes_for(c, r.ranks);
  Strategy ran;  // the sweep's own library: its sockets over TCP
  ran.library = parse_collective_library(r.options.transport);
  ran.nccl = s.strategy.nccl;
  const LinkCapacities links = link_capacities(c, ran);
  const collectives::AllreduceAlgorithm& algorithm =
      r.options.reference && links.nccl ? collectives::allreduce_algorithm("nccl") : *r.options.algorithm;
  for (auto& row : r.rows) {
    if (r.options.op == SweepOp::allreduce) {
      row.predicted_s = collectives::allreduce_s(links, algorithm, row.bytes);
    } else {
      const LinkClass l = links.network_link();
      row.predicted_s = (l.latency + Bytes(row.bytes) / l.bandwidth + links.call_overhead).s();
    }
  }
}

void summarize(std::ostream& out, const executor::Execution& ex) {
  const Schedule& s = ex.schedule;
  out << "measured " << s.model << " / " << s.strategy.method << " on " << s.gpus() << " GPU ranks";
  for (const auto& note : ex.timeline.notes) out << "; " << note;
  out << "\n\n";
  const std::vector<double> ends = iteration_spans(ex.timeline, task_iterations(s), s.iterations).ends_s;
  TextTable t({"iteration", "end", "time"}, {"", "s", "s"});
  for (int i = 0; i < s.iterations; ++i)
    t.add_row({std::to_string(i), fmt::format("{:.4f}", ends[i]),
               fmt::format("{:.4f}", i == 0 ? ends[0] : ends[i] - ends[i - 1])});
  t.write(out);
  if (s.iterations >= 2) {
    const IterationStats st = steady_state(s, ex.timeline);
    out << "\nsteady state: " << fmt::format("{:.4f}", st.iteration_s) << " s per iteration, "
        << fmt::format("{:.1f}", s.gpus() * s.batch_per_gpu * s.accumulation_steps / st.iteration_s) << " "
        << s.sample_unit
        << "/s, exposed comm " << fmt::format("{:.4f}", st.exposed_comm_s) << " s\n";
  }
}

int run(const std::vector<std::string>& args) {
  po::options_description opts("options");
  std::string schedule_path, output, trace, transport, timeout_text, sweep, op, algorithm, scenario;
  std::vector<std::string> sets;
  double compute_scale = 1, factor = 2;
  int local = 0, iterations = 5, max_iterations = 0, warmup = 1;
  opts.add_options()
      ("schedule", po::value(&schedule_path), "schedule JSON file (scalecast schedule)")
      ("output,o", po::value(&output), "rank 0 writes the timeline JSON (sweep: the CSV) to FILE")
      ("trace,t", po::value(&trace), "rank 0 writes the timeline as Chrome trace JSON to FILE")
      ("transport", po::value(&transport)->default_value("gloo"), "gloo (TCP, CPU) or nccl (GPU)")
      ("reference", po::bool_switch(), "collectives through the library's own implementation")
      ("compute-scale", po::value(&compute_scale)->default_value(1), "compute tasks run for duration x this")
      ("timeout", po::value(&timeout_text)->default_value("30s"), "longest any rank waits for another")
      ("local", po::value(&local), "start N ranks on this machine (otherwise RANK, WORLD_SIZE, MASTER_ADDR, "
                                   "MASTER_PORT or mpirun's variables place this process)")
      ("sweep", po::value(&sweep), "time a collective at sizes MIN:MAX (e.g. 1KB:256MB) instead")
      ("op", po::value(&op)->default_value("allreduce"), "sweep: allreduce or sendrecv")
      ("algorithm", po::value(&algorithm)->default_value("ring"),
       ("sweep: all-reduce expansion (" + collectives::allreduce_names(false) + ")").c_str())
      ("step-factor", po::value(&factor)->default_value(2), "sweep: each size is the previous x this")
      ("iters", po::value(&iterations)->default_value(5), "sweep: timed iterations per size")
      ("max-iters", po::value(&max_iterations)->default_value(0),
       "sweep: sizes below 1 MiB repeat until they time as many bytes as --iters calls of 1 MiB, up to "
       "this many calls (0: --iters at every size)")
      ("warmup", po::value(&warmup)->default_value(1), "sweep: untimed iterations per size")
      ("scenario", po::value(&scenario), "sweep: add the analytical prediction on this scenario's cluster")
      ("set,s", po::value(&sets)->composing(), "sweep: override a scenario value: key.path=value");
  po::positional_options_description pos;
  pos.add("schedule", 1);
  return guarded("execute", [&] {
    po::variables_map vm;
    po::parsed_options parsed(nullptr);
    if (parse_options("execute", "SCHEDULE.json [-o timeline.json] [--local N]  |  --sweep MIN:MAX [-o sweep.csv]",
                      opts, pos, args, vm, &parsed, {"output", "trace"}))
      return 0;
    const bool reference = vm["reference"].as<bool>();
    const double timeout_s = units::parse_duration(timeout_text);
    if (!(timeout_s > 0)) throw InputError("--timeout must be positive");
    if (!(compute_scale >= 0)) throw InputError("--compute-scale must not be negative");
    if (sweep.empty() == schedule_path.empty())
      throw InputError("give either a schedule file or --sweep MIN:MAX");
    executor::require_transport(transport);
    executor::SweepOptions so;
    if (!sweep.empty()) {
      std::tie(so.min_bytes, so.max_bytes) = executor::parse_size_range(sweep);
      so.factor = factor;
      so.op = executor::parse_sweep_op(op);
      so.algorithm = &collectives::allreduce_algorithm(algorithm);
      so.reference = reference;
      so.warmup = warmup;
      so.iterations = iterations;
      so.max_iterations = max_iterations;
      so.transport = transport;
      so.timeout_s = timeout_s;
      if (iterations < 1 || warmup < 0 || max_iterations < 0 || max_iterations > 100000)
        throw InputError("--iters must be at least 1, --warmup 0 or more, --max-iters 0 to 100000");
      executor::sweep_sizes(so);
      if (!scenario.empty()) load_scenario(scenario, sets);
    }
    if (vm.count("local")) {
      // A schedule that cannot run is refused here, once, before any rank starts.
      if (sweep.empty()) executor::read_run_schedule(schedule_path, local);
      // The ranks get this command as parsed, less --local: they never launch in turn.
      std::vector<std::string> rank_args = {"execute"};
      for (auto& token : tokens_without(parsed, {"local"})) rank_args.push_back(std::move(token));
      return executor::launch_local(local, rank_args,
                                    std::chrono::milliseconds(static_cast<long long>((timeout_s + 5) * 1000)));
    }
    const executor::LaunchEnv env = executor::launch_env_from_process();
    if (!sweep.empty()) {
      auto result = executor::sweep_rank(so, env);
      if (!result) return 0;
      if (!scenario.empty()) predict_sweep(*result, scenario, sets);
      executor::write_sweep_table(std::cout, *result);
      if (!output.empty()) write_output(output, [&](std::ostream& o) { executor::write_sweep_csv(o, *result); });
      return 0;
    }
    const auto ex = executor::execute_rank({schedule_path, transport, reference, compute_scale, timeout_s}, env);
    if (!ex) return 0;
    OutputFiles files;
    if (!output.empty())
      files.add(output, [&](std::ostream& o) { write_timeline_json(o, ex->schedule, ex->timeline); });
    if (!trace.empty())
      files.add(trace, [&](std::ostream& o) { write_chrome_trace(o, ex->schedule, ex->timeline); });
    files.commit();
    summarize(std::cout, *ex);
    return 0;
  });
}

const Registration reg{"execute", "run a schedule for real (Gloo or NCCL) and measure its timeline", run};

}  // namespace
}  // namespace scalecast::cli

#endif  // SCALECAST_HAVE_EXECUTOR
