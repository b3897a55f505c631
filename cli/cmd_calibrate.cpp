// `scalecast calibrate`: fits one network's cluster constants to its calibration rows (bsp-
// allreduce, bsp-ps) and writes them as a scenario `cluster:` block to paste into a scenario.
#include <iostream>

#include "calibration/cluster_yaml.h"
#include "cli/command.h"
#include "cli/common.h"
#include "sim/report/text_table.h"
#include "validation/calibration_split.h"
#include "validation/summary.h"

namespace scalecast::cli {
namespace {

void print_fit(std::ostream& out, const validation::GroupFit& g) {
  const auto& info = calibration::constant_info();
  TextTable t({"constant", "start", "fitted", "note"}, {"", "", "", ""});
  for (std::size_t i = 0; i < calibration::kConstantCount; ++i) {
    std::string note = g.fit.constrained[i] ? "" : "unconstrained";
    if (g.fit.at_bound[i]) note += std::string(note.empty() ? "" : ", ") + "at a bound";
    t.add_row({info[i].field, calibration::format_constant(i, g.fit.start[i]),
               calibration::format_constant(i, g.fit.fitted[i]), note});
  }
  t.write(out);
}

int run(const std::vector<std::string>& args) {
  po::options_description opts("options");
  std::string data, table, network, output, backend_name;
  opts.add_options()
      ("data,d", po::value(&data)->default_value("validation/data"),
       "folder of measured tables and testbeds.csv")
      ("table,t", po::value(&table)->required(), "measured table (file stem), e.g. "
       "ddl-benchmarks-2020-05-29")
      ("network,n", po::value(&network)->required(), "network (or testbed) of that table")
      ("output,o", po::value(&output), "write the cluster YAML to FILE instead of stdout")
      ("backend,b", po::value(&backend_name)->default_value("analytical"), "analytical or simgrid");
  return guarded("calibrate", [&] {
    po::variables_map vm;
    if (parse_options("calibrate", "--table T --network N [-o CLUSTER.yaml] [options]", opts, {},
                      args, vm))
      return 0;
    std::vector<validation::MeasuredRow> rows;
    std::string known;
    for (const auto& r : validation::read_measurements(data)) {
      if (r.table == table && r.network == network) rows.push_back(r);
      const std::string key = r.table + " / " + r.network;
      if (known.find(key) == std::string::npos) known += (known.empty() ? "" : ", ") + key;
    }
    if (rows.empty())
      throw std::invalid_argument("no rows for table '" + table + "' and network '" + network +
                                  "' in " + data + " (known: " + known + ")");
    const auto cases = validation::make_cases(rows, validation::TestbedMap::read(data));
    const auto backend = make_backend(backend_name);
    std::cerr << "calibrate: fitting " << table << " / " << network << " with " << backend->name()
              << " ...\n";
    const validation::GroupFit g = validation::fit_group(rows, cases, table, network, *backend);
    if (!g.fitted)
      throw std::invalid_argument(table + " / " + network + ": " + g.reason + ", nothing to fit");
    print_fit(std::cerr, g);
    std::vector<std::string> comments = {
        "scalecast calibrate: " + table + " / " + network + ", backend " + backend->name(),
        "fitted to " + std::to_string(g.rows.size()) + " rows (bsp-allreduce, bsp-ps): RMS error " +
            fmt("%.1f%%", 100 * calibration::rms(g.fit.start_errors)) + " -> " +
            fmt("%.1f%%", 100 * calibration::rms(g.fit.fitted_errors)),
        "effective network bandwidth = bandwidth x efficiency (no stream limit, no host staging)"};
    for (std::size_t k = 0; k < g.rows.size(); ++k)
      comments.push_back("  " + validation::row_label(rows[g.rows[k]]) + ": error " +
                         fmt("%+.1f%%", 100 * g.fit.fitted_errors[k]));
    write_output(output, [&](std::ostream& o) {
      calibration::write_cluster_yaml(o, g.fit.cluster, comments);
    });
    return 0;
  });
}

const Registration reg{"calibrate",
                       "fit a network's cluster constants to measured rows; write cluster YAML",
                       run};

}  // namespace
}  // namespace scalecast::cli
