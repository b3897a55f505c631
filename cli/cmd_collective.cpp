// `scalecast collective`: predicts an nccl-tests sweep of one collective on a scenario's cluster
// with NCCL's own algorithm and protocol choice, prints it in nccl-tests' table, and with
// --compare reads a measured nccl-tests output and gives the error per size.
#include <cctype>
#include <fstream>
#include <optional>

#include "calibration/readers/nccl_tests_output.h"
#include "cli/command.h"
#include "cli/common.h"
#include "cli/scenario_input.h"
#include "sim/io/input_error.h"
#include "sim/report/collective_sweep.h"
#include "sim/scenario/run_setup.h"
#include "validation/collective_comparison.h"
#include "validation/collective_comparison_report.h"

namespace scalecast::cli {
namespace {

using collectives::CollectiveOp;

const char* const kSynopsis = R"(SCENARIO.yaml --op OP [-b MIN] [-e MAX] [-f FACTOR] [options]

Predicts one collective as nccl-tests measures it (OP: all_reduce, all_gather, reduce_scatter,
broadcast, reduce, sendrecv, alltoall; sizes as nccl-tests takes them, K/M/G = 2^10/2^20/2^30),
with the algorithm and protocol NCCL 2.27 picks (strategy.nccl_algo and nccl_proto take
NCCL_ALGO / NCCL_PROTO's syntax), on the scenario's cluster sized for --gpus (or its one GPU
count). --compare FILE reads nccl-tests output as printed (header lines and rank prefixes or
not) and prints measured against predicted for each size, sized as that run was. Training
schedules (predict, recommend, calibrate) time every NCCL collective with this same model.)";

// nccl-tests' size syntax (common.cu parsesize): a number with K, M or G (powers of 1024).
double parse_size(const std::string& text, const char* option) {
  std::size_t used = 0;
  double v = 0;
  try {
    v = std::stod(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  double unit = 1;
  if (used > 0 && used + 1 == text.size()) {
    const char c = static_cast<char>(std::toupper(static_cast<unsigned char>(text.back())));
    unit = c == 'K' ? 1024.0 : c == 'M' ? 1048576.0 : c == 'G' ? 1073741824.0 : 0;
    if (unit > 0) ++used;
  }
  if (used != text.size() || !(v * unit >= 1) || !(v * unit <= 1e15))
    throw InputError(std::string(option) + ": expected a size in bytes (K, M, G: powers of 1024) up to 1e15, got '" +
                     text + "'");
  return v * unit;
}

int run(const std::vector<std::string>& args) {
  po::options_description opts("options");
  std::string scenario_path, op_name, minimum = "8", maximum = "1G", type = "float", compare, format, output, cluster_file;
  std::vector<std::string> sets;
  double factor = 2, increment = 0;
  int gpus = 0, gpus_per_thread = 1;
  opts.add_options()("scenario", po::value(&scenario_path)->required(), "scenario YAML file")(
      "op", po::value(&op_name)->required(), "all_reduce, all_gather, reduce_scatter, broadcast, reduce, sendrecv or alltoall")(
      "minbytes,b", po::value(&minimum)->default_value("8"), "smallest size")(
      "maxbytes,e", po::value(&maximum)->default_value("1G"), "largest size")(
      "stepfactor,f", po::value(&factor)->default_value(2), "multiply the size by this from one row to the next")(
      "stepbytes,i", po::value(&increment)->default_value(0), "or add this many bytes (with -f 1)")(
      "datatype,d", po::value(&type)->default_value("float"), "element type (nccl-tests' -d)")(
      "gpus", po::value(&gpus), "GPUs of the run (default: the scenario's one GPU count)")(
      "ngpus,g", po::value(&gpus_per_thread)->default_value(1), "GPUs one thread drives (nccl-tests' -g)")(
      "compare", po::value(&compare), "measured nccl-tests output to compare with, size by size")(
      "format", po::value(&format)->default_value("table"), "table (nccl-tests'), csv or json")(
      "output,o", po::value(&output), "write to FILE instead of stdout");
  bool allow_other_cluster = false;
  add_scenario_options(opts, sets, cluster_file, allow_other_cluster);
  po::positional_options_description pos;
  pos.add("scenario", 1);
  return guarded("collective", [&] {
    po::variables_map vm;
    if (parse_options("collective", kSynopsis, opts, pos, args, vm)) return 0;
    check_format(format, {"table", "csv", "json"});
    if (gpus_per_thread < 1 || gpus_per_thread > 1024) throw InputError("--ngpus: expected 1 to 1024");
    const CollectiveOp op = collectives::parse_collective_op(op_name);
    nccl_tests_type_bytes(type);  // an unknown -d is refused before the scenario is read
    const ScenarioInput input = load_scenario_input(scenario_path, sets, cluster_file, allow_other_cluster);
    const Scenario& s = input.scenario;
    // A measured run sets the sizes, the job's shape and the launch (validation/collective_comparison).
    std::optional<validation::CollectiveComparison> comparison;
    if (!compare.empty()) {
      std::ifstream in(compare);
      if (!in) throw InputError(InputKind::file, compare + ": expected a readable nccl-tests output, got no such file");
      // The runs of the requested collective: exactly one (a log may hold runs of others too).
      std::vector<calibration::NcclTestsOutput> runs;
      for (auto& run : calibration::read_nccl_tests(in, compare))
        if (run.op == op) runs.push_back(std::move(run));
      if (runs.empty()) throw InputError(InputKind::file, compare + ": expected " + to_string(op) + "_perf output (--op), got none");
      if (runs.size() > 1)
        throw InputError(InputKind::file, compare + ":" + std::to_string(runs[1].rows.front().line) + ": expected one run of " +
                          to_string(op) + ", got a second (the first's rows begin at line " +
                          std::to_string(runs[0].rows.front().line) + "): split the file");
      comparison = validation::compare_collective(s, runs.front(), gpus, 0, vm["ngpus"].defaulted() ? 0 : gpus_per_thread);
    }
    if (gpus == 0) {
      if (s.gpus.size() != 1)
        throw InputError("the scenario lists " + std::to_string(s.gpus.size()) + " GPU counts: pick one with --gpus");
      gpus = s.gpus.front();
    }
    CollectiveSweep sweep;
    if (comparison) {
      sweep = validation::comparison_sweep(*comparison, s.name, op, type);
    } else {
      const double min_bytes = parse_size(minimum, "-b"), max_bytes = parse_size(maximum, "-e");
      sweep = predict_collective_sweep(s.name, sized_for(s.cluster, gpus), s.strategy.nccl, op, type, min_bytes,
                                       max_bytes, factor, increment, gpus_per_thread);
    }
    OutputFiles files;
    write_output(files, output, [&](std::ostream& o) {
      if (format == "json") return write_sweep_json(o, sweep);
      if (format == "csv") return write_sweep_csv(o, sweep);
      if (comparison) return validation::write_comparison_table(o, *comparison, compare, s.name);
      write_sweep_table(o, sweep);
    });
    files.commit();
    return 0;
  });
}

const Registration reg{"collective", "predict an nccl-tests sweep of one collective (and compare with a measured one)", run};

}  // namespace
}  // namespace scalecast::cli
