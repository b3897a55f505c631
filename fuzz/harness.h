// What the fuzz harnesses share: the input split into a file and options, scratch files for
// readers that take a path, small limits, and the checks that outputs read back.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "sim/scenario/scenario.h"
#include "sim/backends/work_estimate.h"
#include "sim/types/workload.h"

namespace scalecast::fuzz {

// The input's parts, separated by NUL bytes: the file first, then options (--set overrides).
std::vector<std::string> parts(const std::uint8_t* data, std::size_t size);
// The repository the harness was built from (scenarios, validation data).
std::string source_dir();
// Writes `text` to `name` in this process's scratch folder; returns its path.
std::string scratch_file(const std::string& name, const std::string& text);
// Limits that keep one input to milliseconds (with the sanitizers): a few thousand tasks.
WorkLimits small_limits();
// Aborts when `read` refuses what scalecast wrote: every output must read back.
void expect_readable(const std::string& what, const std::function<void()>& read);
// A user's predict: the first runs of the scenario with the analytical backend, every output
// format written, and (for runs of a few hundred tasks) the schedule and timeline read back.
void predict_and_write(const Scenario& scenario, const Workload& workload);

}  // namespace scalecast::fuzz
