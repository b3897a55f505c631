// The map from measured rows to scenario files (validation/data/testbeds.csv): each (table,
// model, network) names the scenario that describes that testbed, relative to the map's folder.
#pragma once

#include <string>
#include <vector>

#include "validation/measurements.h"

namespace scalecast::validation {

struct TestbedEntry {
  std::string table, model, network;
  std::string scenario;  // path resolved against the map's folder
};

class TestbedMap {
 public:
  // Reads FOLDER/testbeds.csv; every scenario it names must exist.
  static TestbedMap read(const std::string& folder);

  // The entry for a row; throws an InputError naming the row when there is none.
  const TestbedEntry& find(const MeasuredRow& row) const;
  const TestbedEntry* lookup(const std::string& table, const std::string& model,
                             const std::string& network) const;

 private:
  std::string path_;
  std::vector<TestbedEntry> entries_;
};

}  // namespace scalecast::validation
