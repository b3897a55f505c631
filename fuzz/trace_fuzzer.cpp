// Fuzzes a torch.profiler trace as `scalecast import-trace` reads it: the trace reader and the
// importer, an optional parameter list (the input's second part) assigned to the layers, the
// profile CSV written, and that profile read back as a scenario would read it.
#include <sstream>

#include "fuzz/harness.h"
#include "profiler/parameter_list.h"
#include "profiler/profile_csv.h"
#include "profiler/torch_import.h"
#include "profiler/torch_trace.h"
#include "sim/formats/profile_csv.h"
#include "sim/io/input_error.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace scalecast;
  const std::vector<std::string> input = fuzz::parts(data, size);
  try {
    profiler::TraceImport imported =
        profiler::import_torch_trace(profiler::parse_torch_trace(input.at(0), "fuzzed.json"));
    // A scenario reads the profile at its model.precision's element size: the list's own (one
    // for all its dtypes), or fp32's 4 B without a list.
    int element_bytes = imported.profile.precision == "fp16" ? 2 : 4;
    if (input.size() > 1) {
      const auto list = profiler::read_parameter_list(fuzz::scratch_file("parameters.csv", input[1]));
      profiler::assign_parameters(imported.profile, list);
      element_bytes = list.front().element_bytes;
    }
    std::ostringstream profile;
    profiler::write_profile_csv(profile, imported.profile);
    fuzz::expect_readable("a profile", [&] { parse_profile_csv(profile.str(), "profile.csv", element_bytes); });
  } catch (const InputError&) {
    // refused with one line, exit code 2: what a bad trace or parameter list must get (a profile
    // no scenario could read, with no layer time or a line break in a name, among them)
  }
  return 0;
}
