// A collective's nccl-tests sweep: NCCL's model timing each size with its own choice of
// algorithm and protocol, and the three ways `scalecast collective` writes it.
#include "sim/report/collective_sweep.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "sim/collectives/nccl_model.h"
#include "sim/io/json_text.h"
#include "sim/report/csv_field.h"

namespace scalecast {

std::string cluster_shape(const Cluster& sized) {
  return std::to_string(sized.nodes) + " node" + (sized.nodes > 1 ? "s" : "") + " x " +
         std::to_string(sized.gpus_per_node) + " " + sized.gpu;
}

CollectiveSweep predict_collective_sweep(const std::string& scenario, const Cluster& sized,
                                         const collectives::nccl::NcclSettings& nccl, collectives::CollectiveOp op,
                                         const std::string& type, double min_bytes, double max_bytes, double factor,
                                         double increment, int gpus_per_thread) {
  CollectiveSweep sweep{.scenario = scenario, .op = op, .type = type, .gpus = sized.gpus(), .nodes = sized.nodes,
                        .gpus_per_thread = gpus_per_thread, .shape = cluster_shape(sized), .rows = {}};
  const collectives::nccl::NcclModel model = collectives::nccl::nccl_model(sized, nccl);
  for (const NcclTestsSize& size :
       nccl_tests_sizes(op, min_bytes, max_bytes, factor, increment, nccl_tests_type_bytes(type), sweep.gpus)) {
    const auto t = model.time(op, size.bytes, gpus_per_thread);
    sweep.rows.push_back({{size, t.seconds * 1e6}, t.algorithm + " x" + std::to_string(t.channels), t.bound, {}});
  }
  return sweep;
}

namespace {

// "# LABEL: SIZE B VALUE; ..." at each size where the value changes.
void write_changes(std::ostream& out, const CollectiveSweep& sweep, const std::string& label,
                   std::string CollectiveSweepRow::*value) {
  out << "# " << label << ":";
  for (std::size_t i = 0; i < sweep.rows.size(); ++i)
    if (i == 0 || sweep.rows[i].*value != sweep.rows[i - 1].*value)
      out << " " << static_cast<long long>(sweep.rows[i].line.size.bytes) << " B " << sweep.rows[i].*value << ";";
  out << "\n";
}

}  // namespace

void write_sweep_table(std::ostream& out, const CollectiveSweep& sweep) {
  std::vector<NcclTestsLine> lines;
  for (const auto& r : sweep.rows) lines.push_back(r.line);
  const std::string op = collectives::to_string(sweep.op);
  write_nccl_tests_table(out, sweep.op, sweep.type, sweep.gpus, lines,
                         {"scalecast prediction of " + op + "_perf: " + sweep.scenario + ", " + sweep.shape + " (" +
                          std::to_string(sweep.gpus) + " ranks, " + std::to_string(sweep.gpus_per_thread) +
                          " per thread), NCCL 2.27.7's choice of algorithm and protocol"});
  write_changes(out, sweep, "algorithm x channels by size", &CollectiveSweepRow::algorithm);
  if (std::any_of(sweep.rows.begin(), sweep.rows.end(), [](const CollectiveSweepRow& r) { return !r.bound.empty(); }))
    write_changes(out, sweep, "what sets the time by size", &CollectiveSweepRow::bound);
}

void write_sweep_csv(std::ostream& out, const CollectiveSweep& sweep) {
  const bool measured = !sweep.rows.empty() && sweep.rows.front().measured_us.has_value();
  out << "scenario,op,gpus,nodes,bytes,count,predicted_us,algorithm,bound" << (measured ? ",measured_us,error_pct" : "")
      << "\n";
  for (const auto& r : sweep.rows) {
    out << fmt::format("{},{},{},{},{:.0f},{:.0f},{:.3f},{},{}", csv_field(sweep.scenario),
                       collectives::to_string(sweep.op), sweep.gpus, sweep.nodes, r.line.size.bytes,
                       r.line.size.count, r.line.time_us, r.algorithm, csv_field(r.bound));
    if (r.measured_us) {
      const double m = *r.measured_us;
      out << fmt::format(",{:.3f},{:.2f}", m, 100 * (r.line.time_us - m) / m);
    }
    out << "\n";
  }
}

void write_sweep_json(std::ostream& out, const CollectiveSweep& sweep) {
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const auto& r : sweep.rows) {
    nlohmann::ordered_json j = {{"bytes", r.line.size.bytes}, {"count", r.line.size.count},
                                {"time_us", r.line.time_us},   {"algorithm", r.algorithm},
                                {"bound", r.bound}};
    if (r.measured_us) j["measured_us"] = *r.measured_us;
    list.push_back(std::move(j));
  }
  out << json_text(nlohmann::ordered_json({{"scenario", sweep.scenario},
                                           {"op", collectives::to_string(sweep.op)},
                                           {"gpus", sweep.gpus},
                                           {"nodes", sweep.nodes},
                                           {"gpus_per_thread", sweep.gpus_per_thread},
                                           {"rows", std::move(list)}}),
                   2)
      << "\n";
}

}  // namespace scalecast
