// `scalecast validate`: predicts every measured row (validation/data) zero-shot and calibrated,
// prints the summary, writes a report folder, and checks or records the regression baseline.
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>

#include "cli/command.h"
#include "calibration/calibrated_cluster.h"
#include "cli/common.h"
#include "cli/sharding.h"
#include "sim/io/input_error.h"
#include "validation/ablation.h"
#include "validation/baseline.h"
#include "validation/h200_layers.h"
#include "validation/memory_validation.h"
#include "validation/sharded_training.h"
#include "validation/matmul_shapes.h"
#include "validation/single_gpu.h"
#include "validation/report.h"
#include "validation/summary.h"

namespace scalecast::cli {
namespace {

std::vector<validation::Mode> parse_modes(const std::string& text) {
  if (text == "both") return {validation::Mode::zero_shot, validation::Mode::calibrated};
  return {validation::parse_mode(text)};
}

int run_share(const std::vector<std::string>& args, const WorkShare* merged) {
  po::options_description opts("options");
  std::string data, backend, mode, report, format, check, record, cluster_file;
  bool ablation = false;
  opts.add_options()
      ("data,d", po::value(&data)->default_value("validation/data"),
       "folder of measured tables and testbeds.csv")
      ("backend,b", po::value(&backend)->default_value("analytical"), "analytical or simgrid")
      ("mode,m", po::value(&mode)->default_value("both"), "zero-shot, calibrated or both")
      ("report,r", po::value(&report), "write report.md, rows.csv and plots into DIR")
      ("format,f", po::value(&format)->default_value("table"), "summary as table or csv")
      ("check,c", po::value(&check),
       "fail if a table's MAPE is more than 1 point worse than recorded in FILE")
      ("write-baseline", po::value(&record), "record this run's MAPE per table and mode in FILE")
      ("cluster", po::value(&cluster_file),
       "a calibrated cluster file (scalecast calibrate -o): its values override every testbed's scenario")
      ("ablation", po::bool_switch(&ablation),
       "run again with each mechanism (scalecast mechanisms) switched off in turn and report the error of each");
  ShardOptions shard;
  add_shard_options(opts, shard);
  return guarded("validate", [&] {
    po::variables_map vm;
    po::parsed_options parsed(nullptr);
    const std::vector<std::string> outputs = {"write-baseline", "report", "part"};
    if (parse_options("validate", "[options]", opts, {}, args, vm, &parsed, outputs)) return 0;
    check_format(format, {"table", "csv"});
    WorkShare share = work_share(shard, merged);
    if (share.sharded() && ablation)
      throw InputError("--shard: expected no --ablation (it runs the validation once per mechanism)");
    validation::ValidationOptions options;
    options.data = data;
    options.backend = backend;
    options.modes = parse_modes(mode);
    if (!cluster_file.empty()) {
      const calibration::CalibratedCluster cluster = calibration::read_calibrated_cluster(cluster_file);
      options.cluster_file = cluster_file;
      options.cluster = cluster.overrides;
      options.cluster_values = cluster.values;
    }
    const auto baseline = check.empty() ? std::vector<validation::BaselineEntry>{}
                                        : validation::read_baseline(check);
    if (!check.empty()) validation::require_figures(baseline, backend, options.modes, check);
    options.share = &share;
    const auto start = std::chrono::steady_clock::now();
    const validation::ValidationResult v = validation::run_validation(options, std::cerr);
    if (share.sharded()) {
      // The summary, report, baseline and the memory, single-GPU and sharded-training checks are the merge's.
      const std::size_t total = validation::validation_items(options, v.rows.size(), validation::networks(v.rows).size());
      const ShardProgress progress("validate", share, total, "work items", start);
      Part part = part_of("validate", parsed, vm, outputs, {});
      part.items = total;
      part.shard = share.index();
      part.shards = share.count();
      part.results = share.results();
      write_output(shard.part, [&](std::ostream& o) { write_part(o, part); });
      progress.wrote(shard.part);
      return 0;
    }
    validation::write_summary(std::cout, v, format);
    if (format == "table") {
      validation::write_collective_summary(std::cout, v.collectives);
      validation::write_holdout_summary(std::cout, v.collective_holdouts);
    }
    // Published configurations that ran: each should be predicted to fit (docs/MODEL.md, "Memory per GPU").
    std::optional<validation::MemoryValidation> memory;
    if (std::filesystem::exists(data + "/memory-fit/configurations.csv")) {
      memory = validation::validate_memory(data + "/memory-fit");
      if (format == "table") validation::write_memory_summary(std::cout, *memory);
    }
    // Published single-GPU throughput against the compute model (docs/MODEL.md, "Compute").
    std::optional<validation::SingleGpuValidation> single_gpu;
    if (std::filesystem::exists(data + "/single-gpu/throughput.csv")) {
      single_gpu = validation::validate_single_gpu(data + "/single-gpu");
      if (format == "table") validation::write_single_gpu_summary(std::cout, *single_gpu);
    }
    // Measured GEMM kernel times by shape against the product model (docs/MODEL.md, "Compute").
    std::optional<validation::MatmulShapeValidation> matmul;
    if (std::filesystem::exists(data + "/matmul-shapes/xla-default-matmul-table.csv")) {
      matmul = validation::validate_matmul_shapes(data + "/matmul-shapes");
      if (format == "table") validation::write_matmul_shapes_summary(std::cout, *matmul);
    }
    // Published sharded-training throughput against the analytical backend (docs/MODEL.md, "Sharded data parallel").
    std::optional<validation::ShardedTrainingValidation> sharded;
    if (std::filesystem::exists(data + "/sharded-training/throughput.csv")) {
      sharded = validation::validate_sharded_training(data + "/sharded-training");
      if (format == "table") validation::write_sharded_training_summary(std::cout, *sharded);
    }
    // One H200's measured steps and per-layer profiles against the compute model (docs/MODEL.md, "Compute").
    std::optional<validation::H200Check> h200;
    if (std::filesystem::exists(data + "/h200-gpu-check/torch-step-times.json")) {
      h200 = validation::check_h200(data + "/h200-gpu-check");
      if (format == "table") validation::write_h200_summary(std::cout, *h200);
    }
    std::optional<validation::Ablation> ablated;
    if (ablation) {
      ablated = validation::run_ablation(options, v, std::cerr);
      validation::write_ablation(std::cout, *ablated, format);
    }
    if (!report.empty()) validation::write_report(v, report, std::cerr, ablated ? &*ablated : nullptr);
    if (!report.empty() && memory) std::ofstream(report + "/report.md", std::ios::app) << "\n" << validation::memory_markdown(*memory);
    if (!report.empty() && single_gpu)
      std::ofstream(report + "/report.md", std::ios::app) << "\n" << validation::single_gpu_markdown(*single_gpu);
    if (!report.empty() && matmul) {
      std::ofstream(report + "/report.md", std::ios::app) << "\n" << validation::matmul_shapes_markdown(*matmul);
      write_output(report + "/matmul-shapes.csv", [&](std::ostream& o) { validation::write_matmul_shapes_rows(o, *matmul); });
    }
    if (!report.empty() && sharded)
      std::ofstream(report + "/report.md", std::ios::app) << "\n" << validation::sharded_training_markdown(*sharded);
    if (!report.empty() && h200)
      std::ofstream(report + "/report.md", std::ios::app) << "\n" << validation::h200_markdown(*h200);
    if (!record.empty())
      write_output(record, [&](std::ostream& o) { validation::write_baseline(o, v); });
    if (check.empty()) return 0;
    if (memory && memory->not_refused() < memory->expressible()) {
      std::cerr << "scalecast validate: " << memory->expressible() - memory->not_refused()
                << " published configurations that ran are refused by the memory estimate\n";
      return 1;
    }
    const auto outcome = validation::check_baseline(baseline, v, check);
    std::cout << "\nregression check against " << check << " (allowed: +1 point of MAPE):\n";
    for (const auto& line : outcome.lines) std::cout << "  " << line << '\n';
    if (outcome.passed) return 0;
    std::cerr << "scalecast validate: MAPE worse than recorded in " << check
              << " (improvements: update the recorded figure in the same commit)\n";
    return 1;
  });
}

int run(const std::vector<std::string>& args) { return run_share(args, nullptr); }
int run_merged(const std::vector<std::string>& args, const WorkShare& merged) { return run_share(args, &merged); }

const Registration reg{"validate", "predict every measured row, zero-shot and calibrated, and report the error", run,
                       run_merged};

}  // namespace
}  // namespace scalecast::cli
