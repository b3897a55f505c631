// Reads clusters.csv, compares every listed nccl-tests output with its scenario's prediction,
// and summarises per cluster and over clusters.
#include "validation/collectives.h"

#include <filesystem>
#include <fmt/format.h>
#include <fstream>

#include "sim/io/csv.h"
#include "sim/report/text_table.h"
#include "sim/io/input_error.h"

namespace scalecast::validation {

namespace fs = std::filesystem;

CollectiveValidation validate_collectives(const std::string& data, std::ostream& progress,
                                          const ScenarioOverrides& cluster) {
  CollectiveValidation v;
  const fs::path folder = fs::path(data) / "nccl-tests";
  const fs::path list = folder / "clusters.csv";
  std::error_code ec;
  if (!fs::exists(list, ec)) return v;
  const CsvFile csv(list.string());
  for (const CsvRecord& r : csv.records()) {
    ClusterRun run;
    run.cluster = r.non_empty("cluster");
    run.file = (folder / r.non_empty("file")).string();
    run.scenario = (folder / r.non_empty("scenario")).lexically_normal().string();
    run.role = r.non_empty("role");
    if (!run.gate() && !run.role.starts_with("setup: ")) r.fail("role", "gate, or 'setup: ' and why the run is left out");
    try {
      run.op = collectives::parse_collective_op(r.non_empty("op"));
    } catch (const InputError&) {
      r.fail("op", "an nccl-tests operation (all_reduce, all_gather, ...)");
    }
    const int gpus = r.integer("gpus", 1, ranges::kMaxGpus), nodes = r.integer("nodes", 1, ranges::kMaxGpus);
    // The NCCL release the run printed or pinned, where its source says (else the scenario's).
    ScenarioOverrides overrides = cluster;
    if (const std::string version = r.text("nccl_version"); !version.empty()) {
      if (collectives::nccl::parse_nccl_version(version) == 0) r.fail("nccl_version", collectives::nccl::nccl_version_syntax());
      overrides.sets.push_back({"strategy.nccl_version=" + version, list.string()});
      run.nccl_version = version;
    }
    std::ifstream in(run.file);
    if (!in) r.fail("file", "an nccl-tests output in " + folder.string());
    const auto outputs = calibration::read_nccl_tests(in, run.file);
    if (outputs.front().op != run.op) r.fail("op", to_string(outputs.front().op) + " as the output says");
    run.comparison = compare_collective(load_scenario(run.scenario, overrides), outputs.front(), gpus, nodes, 0);
    v.clusters.push_back(std::move(run));
  }
  progress << "validate: " << v.clusters.size() << " measured collectives (nccl-tests) predicted\n";
  return v;
}

CollectiveMeans collective_means(const CollectiveValidation& v) {
  CollectiveMeans m;
  for (const ClusterRun& c : v.clusters) {
    if (!c.gate()) continue;
    const CollectiveComparison& k = c.comparison;
    if (k.latency_sizes) m.latency_pct += k.latency_mape, ++m.latency_clusters;
    if (k.bucket_sizes) {
      ++m.bucket_clusters;
      m.fast_clusters += k.bucket_bias < -10;
      m.slow_clusters += k.bucket_bias > 10;
    }
    if (k.bandwidth_sizes) {
      m.bandwidth_pct += k.bandwidth_mape;
      ++m.bandwidth_clusters;
      m.over15 += k.bandwidth_mape > 15;
      m.over25 += k.bandwidth_mape > 25;
    }
  }
  if (m.latency_clusters) m.latency_pct /= m.latency_clusters;
  if (m.bandwidth_clusters) m.bandwidth_pct /= m.bandwidth_clusters;
  return m;
}

void write_collective_summary(std::ostream& out, const CollectiveValidation& v) {
  if (v.clusters.empty()) return;
  TextTable t({"cluster", "op", "gpus", "nodes", "latency", "latency MAPE", "bandwidth", "bandwidth MAPE", "worst",
               "1-64 MiB bias", "algorithm at 1 MiB"},
              {"", "", "", "", "sizes", "%", "sizes", "%", "%", "%", ""});
  std::vector<const ClusterRun*> left_out;
  for (const ClusterRun& c : v.clusters) {
    if (!c.gate()) {
      left_out.push_back(&c);
      continue;
    }
    const CollectiveComparison& k = c.comparison;
    std::string at_mib = "-";
    for (const auto& s : k.sizes)
      if (s.bytes >= kBandwidthRegimeBytes) {
        at_mib = s.algorithm;
        break;
      }
    t.add_row({c.cluster, to_string(c.op), std::to_string(k.sized.gpus()), std::to_string(k.sized.nodes),
               std::to_string(k.latency_sizes), k.latency_sizes ? fmt::format("{:.1f}", k.latency_mape) : "-",
               std::to_string(k.bandwidth_sizes), k.bandwidth_sizes ? fmt::format("{:.1f}", k.bandwidth_mape) : "-",
               k.bandwidth_sizes ? fmt::format("{:.1f}", k.bandwidth_max) : "-",
               k.bucket_sizes ? fmt::format("{:+.1f}", k.bucket_bias) : "-", at_mib});
  }
  const CollectiveMeans m = collective_means(v);
  out << "\ncollectives (nccl-tests outputs, validation/data/nccl-tests), zero-shot: error of the predicted time per size\n";
  t.write(out);
  out << fmt::format("mean over clusters: {:.1f}% below 64 KiB ({} clusters), {:.1f}% from 1 MiB ({} clusters); "
                     "{} clusters above 15% and {} above 25% from 1 MiB\n",
                     m.latency_pct, m.latency_clusters, m.bandwidth_pct, m.bandwidth_clusters, m.over15, m.over25);
  out << fmt::format("1-64 MiB bias: mean signed error over those sizes, negative = predicted faster than measured; "
                     "{} of {} clusters below -10% and {} above +10%\n",
                     m.fast_clusters, m.bucket_clusters, m.slow_clusters);
  for (const ClusterRun* c : left_out)
    out << fmt::format("left out: {} ({:.1f}% below 64 KiB, {:.1f}% from 1 MiB): {}\n", c->cluster,
                       c->comparison.latency_mape, c->comparison.bandwidth_mape, c->role.substr(7));
}

std::vector<CollectiveFigure> collective_figures(const CollectiveValidation& v) {
  std::vector<CollectiveFigure> out;
  for (const ClusterRun& c : v.clusters) {
    const CollectiveComparison& k = c.comparison;
    if (!c.gate()) continue;
    if (k.latency_sizes)
      out.push_back({"nccl-tests/" + c.cluster + "/latency", static_cast<std::size_t>(k.latency_sizes), k.latency_mape});
    if (k.bandwidth_sizes)
      out.push_back({"nccl-tests/" + c.cluster + "/bandwidth", static_cast<std::size_t>(k.bandwidth_sizes), k.bandwidth_mape});
  }
  return out;
}

}  // namespace scalecast::validation
