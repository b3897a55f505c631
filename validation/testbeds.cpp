// Reading and checking the testbed map: unique (table, model, network) keys, existing scenario
// files, and a lookup that fails loudly for a measured row no entry covers.
#include "validation/testbeds.h"

#include <filesystem>

#include "sim/io/csv.h"
#include "sim/io/input_error.h"

namespace scalecast::validation {

namespace fs = std::filesystem;

TestbedMap TestbedMap::read(const std::string& folder) {
  TestbedMap map;
  map.path_ = (fs::path(folder) / "testbeds.csv").string();
  const CsvFile csv(map.path_);
  for (const CsvRecord& r : csv.records()) {
    TestbedEntry e{r.non_empty("table"), r.non_empty("model"), r.non_empty("network"),
                   (fs::path(folder) / r.non_empty("scenario")).lexically_normal().string()};
    std::error_code ec;
    if (!fs::is_regular_file(e.scenario, ec))
      r.fail("scenario", "an existing scenario file (looked for " + e.scenario + ")");
    if (map.lookup(e.table, e.model, e.network) != nullptr)
      r.fail("network", "one entry per (table, model, network)");
    map.entries_.push_back(std::move(e));
  }
  return map;
}

const TestbedEntry* TestbedMap::lookup(const std::string& table, const std::string& model,
                                       const std::string& network) const {
  for (const auto& e : entries_)
    if (e.table == table && e.model == model && e.network == network) return &e;
  return nullptr;
}

const TestbedEntry& TestbedMap::find(const MeasuredRow& row) const {
  const TestbedEntry* e = lookup(row.table, row.model, row.network);
  if (e == nullptr)
    throw InputError(InputKind::file, row.file + ":" + std::to_string(row.line) + ": expected an entry for (" +
                    row.table + ", " + row.model + ", " + row.network + ") in " + path_ +
                    ", got none");
  return *e;
}

}  // namespace scalecast::validation
