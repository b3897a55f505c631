// `scalecast profile`: runs a CUDA program under the CUPTI injection library (or reads a
// recorded activity dump) and writes its per-layer forward/backward GPU times as a profile CSV.
#include <algorithm>
#include <filesystem>
#include <iostream>
#include <optional>

#include "cli/command.h"
#include "cli/common.h"
#include "profiler/attribution.h"
#include "profiler/chrome_trace.h"
#include "profiler/dump_reader.h"
#include "profiler/launcher.h"
#include "profiler/model_gradients.h"
#include "profiler/profile_csv.h"
#include "sim/io/input_error.h"
#include "sim/zoo/zoo.h"

namespace scalecast::cli {
namespace {

namespace prof = scalecast::profiler;

const char* const kSynopsis =
    "[options] -- COMMAND [ARGS...]    (run COMMAND under the CUPTI profiler)\n"
    "       scalecast profile --dump FILE [options]   (attribute a recorded activity dump)";

struct ProfileOptions {
  std::string output = "profile.csv";
  std::string dump;
  std::string trace;
  std::string model;
  std::string marker = "iteration";
  int warmup = 2;
  int batch = 0;
  std::vector<std::string> command;
};

// Runs the command with the injection library; returns the dump it recorded.
std::string record(const ProfileOptions& o) {
  const std::string library = prof::injection_library();
  if (library.empty()) {
    throw InputError(
        "this scalecast was built without CUDA (SCALECAST_WITH_CUDA): record a "
        "dump on a GPU machine and pass it with --dump, or set SCALECAST_CUPTI_LIB");
  }
  const std::string dump = o.dump.empty() ? o.output + ".activity" : o.dump;
  std::filesystem::remove(dump);  // the injection library never overwrites a dump
  const int status = prof::run_command(o.command, prof::profiling_environment(library, dump));
  if (status != 0) {
    throw std::runtime_error("'" + o.command[0] + "' exited with status " + std::to_string(status) +
                             "; no profile written");
  }
  if (!std::filesystem::exists(dump)) {
    throw std::runtime_error("'" + o.command[0] + "' left no activity dump at " + dump +
                             ": it made no CUDA calls, or " + library +
                             " could not be loaded (see its messages above)");
  }
  return dump;
}

int profile(const ProfileOptions& o) {
  if (!o.model.empty() && !zoo::has_model(o.model)) {
    throw InputError("unknown model '" + o.model + "' (see scalecast models)");
  }
  const std::string dump = o.command.empty() ? o.dump : record(o);
  const prof::ActivityLog log = prof::read_dump(dump);
  prof::Attribution attribution;
  try {
    attribution = prof::attribute(log, prof::AttributionOptions{o.marker, o.warmup});
  } catch (const InputError& e) {
    throw InputError(InputKind::file, dump + ": " + e.what());
  }
  prof::Profile& result = attribution.profile;
  result.batch_per_gpu = o.batch;
  std::vector<std::string> warnings = attribution.warnings;
  if (!o.model.empty()) {
    for (std::string& w : prof::fill_gradients(result, zoo::build_model(o.model, {}))) {
      warnings.push_back(std::move(w));
    }
  }
  for (const std::string& w : warnings) std::cerr << "scalecast profile: warning: " << w << '\n';
  if (result.layers.empty()) {
    throw InputError(dump +
                     ": no GPU work fell inside a layer range (see profiler/README.md "
                     "for the NVTX naming convention)");
  }
  OutputFiles files;
  if (!o.trace.empty())
    files.add(o.trace, [&](std::ostream& out) { prof::write_chrome_trace(out, log, attribution); });
  files.add(o.output, [&](std::ostream& out) { prof::write_profile_csv(out, result); });
  files.commit();
  double forward_ms = 0;
  double backward_ms = 0;
  for (const prof::ProfileLayer& layer : result.layers) {
    forward_ms += layer.forward_ms;
    backward_ms += layer.backward_ms;
  }
  std::cout << "profile: " << result.layers.size() << " layers, " << result.iterations
            << " iterations measured (" << result.warmup << " warm-up dropped), step "
            << result.step_s * 1e3 << " ms; GPU time per iteration: forward " << forward_ms
            << " ms, backward " << backward_ms << " ms, outside layers "
            << attribution.unattributed_ms << " ms -> " << o.output << '\n';
  return 0;
}

int run(const std::vector<std::string>& args) {
  ProfileOptions o;
  const auto separator = std::find(args.begin(), args.end(), "--");
  const std::vector<std::string> own(args.begin(), separator);
  if (separator != args.end()) o.command.assign(separator + 1, args.end());

  po::options_description opts("options");
  opts.add_options()("output,o", po::value(&o.output)->default_value(o.output),
                     "profile CSV to write")(
      "dump", po::value(&o.dump),
      "activity dump: read it (no COMMAND), or where the run records it (default OUTPUT.activity)")(
      "trace", po::value(&o.trace), "also write the raw kernel timeline as Chrome trace JSON")(
      "warmup", po::value(&o.warmup)->default_value(o.warmup), "leading iterations to drop")(
      "iteration-marker", po::value(&o.marker)->default_value(o.marker),
      "name of the NVTX range around each training iteration")(
      "model", po::value(&o.model), "zoo model whose gradient tensors fill the grad columns")(
      "batch", po::value(&o.batch), "batch per GPU, recorded in the profile");
  return guarded("profile", [&] {
    po::variables_map vm;
    if (parse_options("profile", kSynopsis, opts, {}, own, vm, nullptr, {"output", "trace"})) return 0;
    if (o.warmup < 0) throw InputError("--warmup must be >= 0");
    if (vm.count("batch") && o.batch <= 0) throw InputError("--batch must be positive");
    if (separator != args.end() && o.command.empty()) throw InputError("no COMMAND after --");
    if (o.command.empty() && o.dump.empty()) {
      throw InputError("give a COMMAND after -- or a recorded dump with --dump FILE (see --help)");
    }
    return profile(o);
  });
}

const Registration reg{"profile", "measure per-layer GPU times of a training job (CUPTI + NVTX)",
                       run};

}  // namespace
}  // namespace scalecast::cli
