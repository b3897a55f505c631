// `scalecast predict`: the main job. Predicts every (method, GPU count) of a scenario with a
// backend and prints a table, CSV or JSON; --trace writes one run's timeline for Perfetto.
#include <algorithm>
#include <fmt/format.h>
#include <iostream>
#include <utility>

#include "cli/command.h"
#include "cli/common.h"
#include "cli/scenario_input.h"
#include "cli/sharding.h"
#include "sim/backends/backend_registry.h"
#include "sim/io/input_error.h"
#include "sim/memory/memory_fit.h"
#include "sim/prediction/prediction_interval.h"
#include "sim/recommend/predict_sweep.h"
#include "sim/report/prediction_row_json.h"
#include "sim/report/chrome_trace.h"
#include "sim/report/prediction_report.h"
#include "sim/report/text_table.h"
#include "sim/io/sweep.h"
#include "sim/formats/timeline_json.h"
#include "sim/io/units.h"
#include "sim/zoo/zoo.h"

namespace scalecast::cli {
namespace {

std::string join(const std::vector<std::string>& parts, const std::string& separator) {
  std::string out;
  for (const auto& p : parts) out += (out.empty() ? "" : separator) + p;
  return out;
}

std::string describe_combination(const std::vector<ScenarioOverride>& combination) {
  std::vector<std::string> parts;
  for (const auto& o : combination) parts.push_back(o.assignment);
  return join(parts, ", ");
}

// The spread a prediction carries: the calibration's held-out residuals when the cluster file
// has them, else the documented zero-shot defaults; widened by the compute model's own residuals
// when nothing measured backs the compute time, in proportion to compute's share of the iteration.
Uncertainty uncertainty_of(const ScenarioInput& input, const BuiltWorkload& w, double compute_share = 1) {
  const Uncertainty u =
      input.calibrated && input.calibrated->has_spread
          ? calibrated_uncertainty(sigma_from_p05_p95(input.calibrated->ratio_p05, input.calibrated->ratio_p95),
                                   "held-out residuals of " + input.calibrated->path)
          : default_uncertainty();
  return w.origin == ComputeOrigin::model ? with_compute_model(u, compute_share) : u;
}

// Where the compute time comes from, and what would make it firmer.
std::string compute_origin(const BuiltWorkload& w) {
  switch (w.origin) {
    case ComputeOrigin::profile: return "from a measured profile";
    case ComputeOrigin::measured_throughput: return "from the compute model scaled to a measured throughput";
    case ComputeOrigin::model: break;
  }
  return "from the compute model alone (measure it: scalecast profile or import-trace for a profile, or "
         "compute.single_gpu_throughput)";
}

// The memory line; where the estimate differs by method or GPU count (sharded state), one line
// for each.
std::string memory_lines(const Scenario& s, const std::vector<MemoryFit>& fits) {
  std::vector<std::string> lines;
  for (const MemoryFit& fit : fits) {
    const std::string warning = memory_warning(fit);
    lines.push_back(memory_summary(fit) + (fit.fits() ? "" : ": does not fit (--allow-oom)") +
                    (warning.empty() ? "" : "\n          warning: " + warning));
  }
  if (std::all_of(lines.begin(), lines.end(), [&](const std::string& l) { return l == lines[0]; }))
    return "memory    " + lines[0] + "\n";
  std::string text;
  std::size_t i = 0;
  for (const auto& m : s.methods)
    for (int g : s.gpus) {
      text += (i == 0 ? "memory    " : "          ") + m + " x " + std::to_string(g) + " GPUs: " + lines[i];
      text += "\n";
      ++i;
    }
  return text;
}

// How the scenario runs its model, in its own keys' words: precision and mixed precision, a
// transformer's attention and checkpointing, and the layout, kernels, loss and gradient reduction
// where they are not the defaults.
std::string run_settings(const ModelSettings& m) {
  std::string text = to_string(m.precision);
  if (half_width(m.precision)) text += m.mixed_precision == "autocast" ? " (autocast over fp32 weights)" : " (half-width weights)";
  const zoo::ModelInfo* info = zoo::model_info(m.name);
  if (!info || info->sample_unit == "sequences") {
    text += ", " + m.attention + " attention";
    if (m.attention == "fused") text += " (" + m.attention_kernel + ")";
    const Checkpointing c = m.activation_checkpointing;
    text += c == Checkpointing::none             ? ", no checkpointing"
            : c == Checkpointing::selective      ? ", selective checkpointing"
            : c == Checkpointing::selective_op   ? ", per-op checkpointing"
            : m.checkpoint_every > 1             ? ", full checkpointing of one block in " + std::to_string(m.checkpoint_every)
                                                 : ", full checkpointing";
  }
  if (m.memory_format != "channels_first") text += ", " + m.memory_format;
  if (m.kernels != "eager") text += ", " + m.kernels + " kernels";
  if (m.loss != "eager") text += ", " + m.loss + " loss";
  if (!m.reduce_precision.empty()) text += ", gradients reduced in " + m.reduce_precision;
  if (!m.options.shape.head.empty()) text += ", " + m.options.shape.head + " head";
  if (m.options.shape.mlm_positions > 0)
    text += ", masked-LM head on " + std::to_string(m.options.shape.mlm_positions) + " positions a sequence";
  return text;
}

void describe(std::ostream& out, const Scenario& s, const BuiltWorkload& w, const std::vector<MemoryFit>& fits,
              const ScenarioInput& input, double interval_pct) {
  const Cluster& c = s.cluster;
  out << "scenario  " << s.name << " (" << s.path << ")\n"
      << "model     " << w.workload.model << ", batch " << w.workload.batch_per_gpu << " per GPU"
      << (w.workload.accumulation_steps > 1
              ? " x " + std::to_string(w.workload.accumulation_steps) + " accumulated micro-batches a step"
              : "")
      << ", "
      << w.workload.parameters() << " parameters in " << w.workload.grad_tensor_count()
      << " gradient tensors (" << units::format_bytes(static_cast<double>(w.workload.grad_bytes()))
      << ")\n"
      << "as run    " << run_settings(s.model) << "\n"
      << "compute   " << w.source << ": " << units::format_seconds(w.workload.compute_s())
      << " per iteration on one GPU, " << compute_origin(w) << "\n"
      << memory_lines(s, fits)
      << "cluster   " << c.gpus_per_node << " x " << s.compute.gpu << " per node over "
      << c.fabric.kind << ", " << units::format_rate(c.nic_bandwidth.bytes_per_s()) << " " << to_string(c.transport)
      << " NICs (payload " << units::format_rate((c.nic_bandwidth * c.net.efficiency).bytes_per_s())
      << " each, latency " << units::format_seconds(c.net.latency.s()) << "), " << to_string(c.topology.kind) << "\n";
  if (!s.switched_off.empty()) {
    out << "switched off";
    for (Mechanism off : s.switched_off) out << " " << mechanism_info(off).name << " (" << mechanism_info(off).off << ");";
    out << "\n";
  }
  if (input.calibrated) {
    out << "calibrated " << input.calibrated->path << ":";
    for (const auto& v : input.calibrated->values) out << " " << v << ";";
    out << "\n";
  }
  if (interval_pct > 0) {
    const Uncertainty u = uncertainty_of(input, w);
    const IntervalFactors f = interval_factors(u, interval_pct);
    out << "interval  " << interval_pct << "% of measurements expected within x"
        << fmt::format("{:.3f}", f.low) << " to x" << fmt::format("{:.3f}", f.high)
        << (u.compute_sigma > 0 ? " of a predicted iteration that is all compute, narrower as compute's share falls"
                                : " of each predicted iteration")
        << " (log-normal, sigma " << fmt::format("{:.3f}", u.sigma())
        << ": transport " << fmt::format("{:.3f}", u.transport_sigma) << ", schedule model "
        << fmt::format("{:.3f}", u.schedule_sigma) << ", compute model " << fmt::format("{:.3f}", u.compute_sigma)
        << (u.compute_sigma > 0 ? " times each row's compute share" : "") << "; " << u.source << ")\n";
  }
  out << "\n";
}

const char* const kSynopsis = R"(SCENARIO.yaml [options]

The scenario's model is one of the zoo (model.name, see scalecast models; gpt and llama by
their shape) or, for any other model, a profile CSV (model.profile, made by scalecast
import-trace from a torch.profiler trace or by scalecast profile on a GPU). With a profile:
  model.precision  must be the profile's "# precision:" when it records one; gradient bytes
                   are read as elements of that precision (4 B fp32/tf32, 2 B fp16)
  model.optimizer  must be the profile's "# optimizer:" when it records one
  gpu.type         a catalog "# gpu:" other than it is scaled to it layer by layer by the
                   compute model (model.name must name the zoo model profiled, else refused);
                   precision is never converted
  batch_per_gpu    layer times scale linearly from the profile's "# batch_per_gpu:"
  "# step_s:"      the step time beyond the layers' forward + backward is the optimizer
                   step; without it, the optimizer step comes from the compute model
Refusals name the profile's line. Memory: see docs/MODEL.md.)";

int run_share(const std::vector<std::string>& args, const WorkShare* merged) {
  po::options_description opts("options");
  std::string scenario_path, backend_name, format, output, trace, timeline;
  std::vector<std::string> sets, sweeps, methods, simgrid_cfg, simgrid_log;
  std::vector<int> gpus;
  LimitOptions limits;
  bool allow_oom = false;
  double interval_pct = 0;
  opts.add_options()("scenario", po::value(&scenario_path)->required(), "scenario YAML file")(
      "backend,b", po::value(&backend_name)->default_value("analytical"), "analytical or simgrid")(
      "format,f", po::value(&format)->default_value("table"), "table, csv or json")(
      "output,o", po::value(&output), "write to FILE instead of stdout")(
      "method,m", po::value(&methods)->composing(), "only this method (repeatable)")(
      "gpus,g", po::value(&gpus)->composing(), "only this GPU count (repeatable)")(
      "sweep", po::value(&sweeps)->composing(),
      "KEY.PATH=V1,V2,...: predict for each value (as --set takes it); several --sweep give every "
      "combination, each a column of the output")(
      "trace,t", po::value(&trace), "write the timeline of the (single) selected run as Chrome trace JSON")(
      "timeline", po::value(&timeline),
      "write the timeline of the (single) selected run as scalecast-timeline JSON (for compare)")(
      "allow-oom", po::bool_switch(&allow_oom), "predict even when the model does not fit in GPU memory")(
      "interval", po::value(&interval_pct),
      "PCT: also give the range that PCT % of measured iteration times "
      "fall in (calibration residuals with --cluster, else documented defaults)")(
      "cfg", po::value(&simgrid_cfg)->composing(),
      "KEY:VALUE: a SimGrid configuration setting, applied after "
      "scalecast's own (--backend simgrid*; repeatable)")(
      "log", po::value(&simgrid_log)->composing(),
      "SETTING: SimGrid's log control, e.g. scalecast.thres:verbose or "
      "root.thres:info (--backend simgrid*; repeatable)");
  std::string cluster_file;
  bool allow_other_cluster = false;
  add_scenario_options(opts, sets, cluster_file, allow_other_cluster);
  add_limit_options(opts, limits);
  ShardOptions shard;
  add_shard_options(opts, shard);
  po::positional_options_description pos;
  pos.add("scenario", 1);
  return guarded("predict", [&] {
    po::variables_map vm;
    po::parsed_options parsed(nullptr);
    const std::vector<std::string> outputs = {"output", "trace", "timeline", "part"};
    if (parse_options("predict", kSynopsis, opts, pos, args, vm, &parsed, outputs)) return 0;
    check_format(format, {"table", "csv", "json"});
    WorkShare share = work_share(shard, merged);
    if (share.sharded() && (!trace.empty() || !timeline.empty()))
      throw InputError("--shard: expected no --trace or --timeline (they write one run, not a sweep's share)");
    const ScenarioInput input = load_scenario_input(scenario_path, sets, cluster_file, allow_other_cluster);
    std::vector<SweepAxis> axes;
    for (const auto& text : sweeps) axes.push_back(parse_sweep_axis(text));
    const auto combinations = sweep_combinations(axes, 10000);
    Scenario first = input.scenario;
    select_runs(first, methods, gpus);
    const WorkLimits work = limits.limits();
    if (vm.count("interval") && !(interval_pct > 0 && interval_pct < 100))
      throw InputError("--interval: expected a percentage in (0, 100), got " +
                       fmt::format("{:g}", interval_pct));
    if ((!trace.empty() || !timeline.empty()) && first.methods.size() * first.gpus.size() * combinations.size() != 1)
      throw InputError("--trace and --timeline need exactly one run: select it with --method and --gpus");
    BackendSettings settings;
    for (const auto& c : simgrid_cfg) settings.simgrid_args.push_back("--cfg=" + c);
    for (const auto& l : simgrid_log) settings.simgrid_args.push_back("--log=" + l);
    const auto backend = make_backend(backend_name, settings);
    // Every combination is read and checked (memory included) before any runs.
    struct Run {
      SweptScenario swept;
      BuiltWorkload workload;
      std::vector<MemoryFit> memory;  // per method and GPU count, in the order of the output
      std::string swept_as;  // the combination's values, for progress
    };
    std::vector<Run> runs;
    for (const auto& combination : combinations) {
      Run r{with_overrides(input, combination), {}, {}, describe_combination(combination)};
      select_runs(r.swept.scenario, methods, gpus);
      PlannedRuns planned = plan_runs(r.swept.scenario, r.swept_as, allow_oom, std::cerr);
      r.workload = std::move(planned.workload);
      r.memory = std::move(planned.memory);
      runs.push_back(std::move(r));
    }
    // Work item j is the j-th (combination, method, GPU count), in the order of the output.
    std::size_t total = 0;
    for (const Run& run : runs) total += run.swept.scenario.methods.size() * run.swept.scenario.gpus.size();
    share.check_total(total);
    ShardProgress progress("predict", share, total, "runs");
    std::vector<PredictionRow> rows;
    OutputFiles files;
    std::size_t item = 0;
    for (const Run& run : runs) {
      const Scenario& s = run.swept.scenario;
      std::size_t fit = 0;
      for (const auto& m : s.methods)
        for (int g : s.gpus) {
          PredictionRun r;
          const MemoryFit& memory = run.memory[fit++];
          const std::size_t j = item++;
          if (share.merging()) {
            r.row = read_predicted_row(share.result(j));
          } else if (!share.computes(j)) {
            continue;
          } else {
            const std::string what =
                m + " x " + std::to_string(g) + " GPUs" + (run.swept_as.empty() ? "" : ", " + run.swept_as);
            progress.attempt(j, what, [&] {
              // A trace or timeline shows the scenario's iterations; the row is the same either way.
              const bool whole = !trace.empty() || !timeline.empty();
              r = predict(s, run.workload.workload, m, g, *backend, work, whole ? 0 : kSteadyState);
            });
            share.record(j, predicted_row_json(r.row));
          }
          if (!trace.empty())
            write_output(files, trace, [&](std::ostream& o) { write_chrome_trace(o, r.schedule, r.timeline); });
          if (!timeline.empty())
            write_output(files, timeline, [&](std::ostream& o) { write_timeline_json(o, r.schedule, r.timeline); });
          r.row.memory = memory;
          r.row.overrides = input.overrides;
          r.row.settings = run.swept.settings;
          if (interval_pct > 0) {
            const double compute_share = r.row.iteration_s > 0 ? r.row.compute_s / r.row.iteration_s : 1;
            const IntervalFactors band = interval_factors(uncertainty_of(input, run.workload, compute_share), interval_pct);
            r.row.interval_pct = interval_pct;
            r.row.iteration_low_s = r.row.iteration_s * band.low;
            r.row.iteration_high_s = r.row.iteration_s * band.high;
          }
          rows.push_back(std::move(r.row));
        }
    }
    if (share.sharded()) {
      Part part = part_of("predict", parsed, vm, outputs, {input.scenario.model.profile});
      part.items = total;
      part.shard = share.index();
      part.shards = share.count();
      part.results = share.results();
      write_output(files, shard.part, [&](std::ostream& o) { write_part(o, part); });
      files.commit();
      progress.wrote(shard.part);
      return 0;
    }
    const Scenario& s = runs.front().swept.scenario;
    const BuiltWorkload& w = runs.front().workload;
    write_output(files, output, [&](std::ostream& o) {
      if (format == "table") {
        describe(o, s, w, runs.front().memory, input, interval_pct);
        for (const SweepAxis& a : axes) o << "sweep     " << a.key << ": " << join(a.values, ", ") << "\n";
        if (!axes.empty()) o << "\n";
      }
      write_rows(o, rows, format);
    });
    files.commit();
    return 0;
  });
}

int run(const std::vector<std::string>& args) { return run_share(args, nullptr); }
int run_merged(const std::vector<std::string>& args, const WorkShare& merged) { return run_share(args, &merged); }

const Registration reg{"predict", "predict throughput for each method and GPU count of a scenario", run, run_merged};

}  // namespace
}  // namespace scalecast::cli
