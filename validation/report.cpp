// Writes the report folder: plots first (report.md says whether gnuplot drew them), then
// report.md and rows.csv, written all or none (sim/io/output_files), so a failure leaves no partial file.
#include "validation/report.h"

#include <filesystem>
#include <stdexcept>

#include "sim/io/output_files.h"
#include "validation/plots.h"
#include "validation/report_markdown.h"
#include "validation/summary.h"

namespace scalecast::validation {

namespace fs = std::filesystem;

void write_report(const ValidationResult& v, const std::string& dir, std::ostream& progress,
                  const Ablation* ablation) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (!fs::is_directory(dir, ec))
    throw std::runtime_error("cannot create the report folder " + dir);
  const PlotOutcome plots = write_plots(v, dir, progress);
  if (!plots.problem.empty()) progress << "validate: " << plots.problem << '\n';
  OutputFiles files;
  files.add((fs::path(dir) / "report.md").string(),
            [&](std::ostream& o) {
              write_report_markdown(o, v, plots);
              if (ablation) write_ablation_markdown(o, *ablation);
            });
  files.add((fs::path(dir) / "rows.csv").string(), [&](std::ostream& o) { write_rows_csv(o, v); });
  if (ablation)
    files.add((fs::path(dir) / "ablation.csv").string(), [&](std::ostream& o) { write_ablation(o, *ablation, "csv"); });
  files.commit();
  progress << "validate: wrote " << (fs::path(dir) / "report.md").string() << ", rows.csv"
           << (ablation ? ", ablation.csv" : "") << " and "
           << plots.images.size() << " plots\n";
}

}  // namespace scalecast::validation
