// Format detection by content (a JSON timeline, the sweep's CSV header, the validation table's
// columns, nccl-tests' table), and collectives as fit samples through the model that times them.
#include "calibration/measurement_files.h"

#include <fstream>
#include <sstream>

#include "calibration/readers/nccl_tests_output.h"
#include "calibration/readers/sweep_csv.h"
#include "calibration/readers/timeline_samples.h"
#include "sim/io/input_error.h"
#include "sim/collectives/algorithm_choice.h"
#include "sim/network/nccl/nccl_collective.h"
#include "sim/network/link_capacities.h"

namespace scalecast::calibration {

std::string to_string(MeasurementFormat f) {
  switch (f) {
    case MeasurementFormat::sweep_csv: return "execute sweep CSV";
    case MeasurementFormat::nccl_tests: return "nccl-tests output";
    case MeasurementFormat::timeline: return "measured timeline";
    case MeasurementFormat::throughput_table: return "measured throughput table";
  }
  return "";
}

MeasurementFormat detect_format(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw InputError(InputKind::file, path + ": expected a measurement file, got one that cannot be opened");
  std::ostringstream text;
  text << in.rdbuf();
  const std::string s = text.str();
  const auto first = s.find_first_not_of(" \t\r\n");
  if (first != std::string::npos && s[first] == '{' && s.find("\"scalecast-timeline\"") != std::string::npos)
    return MeasurementFormat::timeline;
  const std::string first_line = s.substr(0, s.find('\n'));
  if (is_sweep_csv_header(first_line)) return MeasurementFormat::sweep_csv;
  if (first_line.find("model,") == 0 && first_line.find("throughput") != std::string::npos)
    return MeasurementFormat::throughput_table;
  if (looks_like_nccl_tests(s)) return MeasurementFormat::nccl_tests;
  throw InputError(InputKind::file, path +
                    ": expected a measurement scalecast reads (an execute --sweep CSV, nccl-tests output, an "
                    "execute timeline, or a measured throughput table), got none of them");
}

std::vector<CollectiveSample> read_collective_samples(const std::string& path, MeasurementFormat format,
                                                      const Cluster* cluster, int gpus) {
  std::vector<CollectiveSample> out;
  switch (format) {
    case MeasurementFormat::sweep_csv: out = read_sweep_csv(path); break;
    case MeasurementFormat::timeline: out = read_timeline_samples(path); break;
    case MeasurementFormat::nccl_tests: {
      std::ifstream in(path);
      for (const auto& run : read_nccl_tests(in, path))
        for (auto& s : nccl_tests_samples(run, cluster, gpus)) out.push_back(std::move(s));
      break;
    }
    case MeasurementFormat::throughput_table: throw InputError(InputKind::file, path + ": holds throughputs, not collectives");
  }
  for (auto& s : out) s.file = path;
  return out;
}

FitSample fit_sample(const CollectiveSample& s, const collectives::nccl::NcclSettings& nccl) {
  return {s.where, s.time_s, [s, nccl](const Cluster& base) {
            Cluster c = base;
            c.nodes = s.nodes;
            c.gpus_per_node = s.gpus_per_node;
            Strategy ran;
            ran.library = s.library;
            ran.nccl = nccl;
            const LinkCapacities links = link_capacities(c, ran);
            if (collectives::nccl_chooses(links, s.algorithm))
              return links.nccl->seconds(s.op, s.bytes, s.gpus_per_thread);
            return collectives::collective_op_s(links, s.op, s.bytes, s.algorithm);
          },
          {}};
}

}  // namespace scalecast::calibration
