// `scalecast schedule`: writes the backend-independent schedule of one (method, GPU count) run
// of a scenario as JSON, the file the simulator backends and the real executor both run.
#include "cli/command.h"
#include "cli/common.h"
#include "cli/scenario_input.h"
#include "sim/io/json_text.h"
#include "sim/prediction/prediction.h"
#include "sim/scenario/run_setup.h"
#include "sim/formats/schedule_json.h"

namespace scalecast::cli {
namespace {

int run(const std::vector<std::string>& args) {
  po::options_description opts("options");
  std::string scenario_path, method, output;
  int gpus = 0;
  std::vector<std::string> sets;
  LimitOptions limits;
  opts.add_options()
      ("scenario", po::value(&scenario_path)->required(), "scenario YAML file")
      ("method,m", po::value(&method)->required(), "method (preset name)")
      ("gpus,g", po::value(&gpus)->required(), "GPU count")
      ("output,o", po::value(&output), "write to FILE instead of stdout");
  std::string cluster_file;
  bool allow_other_cluster = false;
  add_scenario_options(opts, sets, cluster_file, allow_other_cluster);
  add_limit_options(opts, limits);
  po::positional_options_description pos;
  pos.add("scenario", 1);
  return guarded("schedule", [&] {
    po::variables_map vm;
    if (parse_options("schedule", "SCENARIO.yaml --method M --gpus N [-o schedule.json]", opts, pos,
                      args, vm))
      return 0;
    const Scenario s = load_scenario_input(scenario_path, sets, cluster_file, allow_other_cluster).scenario;
    make_preset(method);
    nodes_for(s.cluster, gpus);
    const BuiltWorkload w = build_workload(s);
    const Schedule schedule = schedule_for(s, w.workload, method, gpus, limits.limits());
    write_output(output, [&](std::ostream& o) { o << json_text(schedule_to_json(schedule), 1) << '\n'; });
    return 0;
  });
}

const Registration reg{"schedule", "write the schedule of one run as JSON", run};

}  // namespace
}  // namespace scalecast::cli
