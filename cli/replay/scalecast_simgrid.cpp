// scalecast-simgrid: one SimGrid replay in a process of its own, so that only it loads SimGrid
// (SimGrid also keeps global state from one Engine to the next). `scalecast` starts it for every
// replay: the schedule as JSON on standard input, the result or the error as JSON on standard out.
// Usage: scalecast-simgrid automatic|full|reduced [--cfg=KEY:VALUE | --log=SETTING]... < schedule.json
#include <iostream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "sim/io/input_error.h"
#include "sim/io/json_text.h"
#include "sim/formats/schedule_json.h"
#include "sim/backends/simgrid/replay.h"

int main(int argc, char** argv) {
  using namespace scalecast;
  try {
    if (argc < 2) throw InputError("usage: scalecast-simgrid automatic|full|reduced [SIMGRID_OPTION]...");
    simgrid_backend::ReplayOptions options;
    options.expansion = simgrid_backend::parse_expansion_mode(argv[1]);
    options.engine_args = simgrid_backend::checked_engine_args(std::vector<std::string>(argv + 2, argv + argc));
    const std::string text{std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>()};
    const Schedule schedule = schedule_from_json(nlohmann::json::parse(text), "the schedule scalecast sent");
    std::cout << simgrid_backend::to_wire(simgrid_backend::replay(schedule, options));
    return 0;
  } catch (const std::exception& e) {
    std::cout << json_text(nlohmann::ordered_json{{"error", e.what()}});
    return 1;
  }
}
