// Fuzzes the validation folder's readers as `scalecast validate` reads them; the first byte picks
// one: a measured table under either published name (then its first rows' cases and predictions,
// against the committed testbed map), the testbed map itself, or a baseline.
#include "fuzz/harness.h"
#include "sim/backends/analytical/analytical_backend.h"
#include "sim/io/input_error.h"
#include "sim/prediction/prediction.h"
#include "validation/baseline.h"
#include "validation/cases.h"
#include "validation/measurements.h"
#include "validation/testbeds.h"

namespace {

using namespace scalecast;

void table(const std::string& name, const std::string& text) {
  static const validation::TestbedMap testbeds = validation::TestbedMap::read(fuzz::source_dir() + "/validation/data");
  const auto rows = validation::read_measured_table(fuzz::scratch_file(name, text));
  const AnalyticalBackend backend;
  for (std::size_t i = 0; i < rows.size() && i < 2; ++i) {
    const validation::Case c = validation::make_case(rows[i], testbeds);
    if (c.expressible) predict(c.scenario, c.workload, rows[i].method, rows[i].gpus, backend, fuzz::small_limits());
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::string text(reinterpret_cast<const char*>(data) + 1, size - 1);
  try {
    switch (data[0] % 4) {
      case 0: table("ddl-benchmarks-2020-05-29.csv", text); break;
      case 1: table("distml-2021.csv", text); break;
      case 2: {
        const std::string map = fuzz::scratch_file("testbeds.csv", text);
        validation::TestbedMap::read(map.substr(0, map.rfind('/')));
        break;
      }
      case 3: validation::read_baseline(fuzz::scratch_file("baseline.csv", text)); break;
    }
  } catch (const InputError&) {
    // refused with one line: what a bad table, map or baseline must get
  }
  return 0;
}
