// Prediction rows to and from a part file's JSON, checked key by key; nlohmann's number output is
// the shortest text that reads back to the same double.
#include "sim/report/prediction_row_json.h"

#include <limits>

namespace scalecast {

namespace {

const std::vector<std::string> kKeys = {"scenario", "model", "method", "backend", "sample_unit", "gpu", "fabric",
                                        "transport", "gpus", "nodes", "batch_per_gpu", "network_bandwidth",
                                        "iteration_s", "throughput", "speedup", "efficiency", "compute_s",
                                        "exposed_comm_s"};

}  // namespace

nlohmann::json predicted_row_json(const PredictionRow& r) {
  return {{"scenario", r.scenario},
          {"model", r.model},
          {"method", r.method},
          {"backend", r.backend},
          {"sample_unit", r.sample_unit},
          {"gpu", r.gpu},
          {"fabric", r.fabric},
          {"transport", r.transport},
          {"gpus", r.gpus},
          {"nodes", r.nodes},
          {"batch_per_gpu", r.batch_per_gpu},
          {"network_bandwidth", r.network_bandwidth},
          {"iteration_s", r.iteration_s},
          {"throughput", r.throughput},
          {"speedup", r.speedup},
          {"efficiency", r.efficiency},
          {"compute_s", r.compute_s},
          {"exposed_comm_s", r.exposed_comm_s}};
}

PredictionRow read_predicted_row(const JsonReader& j) {
  j.check_keys(kKeys);
  Bound any = Bound::between(std::numeric_limits<double>::lowest(), std::numeric_limits<double>::max());
  any.text = "(finite)";
  const int most = std::numeric_limits<int>::max();
  PredictionRow r;
  r.scenario = j.require("scenario").string();
  r.model = j.require("model").string();
  r.method = j.require("method").string();
  r.backend = j.require("backend").string();
  r.sample_unit = j.require("sample_unit").string();
  r.gpu = j.require("gpu").string();
  r.fabric = j.require("fabric").string();
  r.transport = j.require("transport").string();
  r.gpus = j.require("gpus").integer(0, most);
  r.nodes = j.require("nodes").integer(0, most);
  r.batch_per_gpu = j.require("batch_per_gpu").integer(0, most);
  r.network_bandwidth = j.require("network_bandwidth").number(any);
  r.iteration_s = j.require("iteration_s").number(any);
  r.throughput = j.require("throughput").number(any);
  r.speedup = j.require("speedup").number(any);
  r.efficiency = j.require("efficiency").number(any);
  r.compute_s = j.require("compute_s").number(any);
  r.exposed_comm_s = j.require("exposed_comm_s").number(any);
  return r;
}

}  // namespace scalecast
