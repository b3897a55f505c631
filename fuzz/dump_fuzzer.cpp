// Fuzzes an activity dump as `scalecast profile --dump` reads it: the strict reader, attribution
// to layers, the profile CSV and the kernel trace written, and the profile read back as a
// scenario would read it.
#include <sstream>

#include "fuzz/harness.h"
#include "profiler/attribution.h"
#include "profiler/chrome_trace.h"
#include "profiler/dump_reader.h"
#include "profiler/profile_csv.h"
#include "sim/formats/profile_csv.h"
#include "sim/io/input_error.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace scalecast;
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  try {
    const profiler::ActivityLog log = profiler::parse_dump(in, "fuzzed.activity");
    const profiler::Attribution a = profiler::attribute(log, {"iteration", 1});
    std::ostringstream trace, profile;
    profiler::write_chrome_trace(trace, log, a);
    profiler::write_profile_csv(profile, a.profile);
    if (!a.profile.layers.empty())
      fuzz::expect_readable("a profile", [&] { parse_profile_csv(profile.str(), "profile.csv", 4); });
  } catch (const InputError&) {
    // refused with one line, exit code 2: what a bad dump must get (a layer name no CSV field
    // can hold among them)
  }
  return 0;
}
