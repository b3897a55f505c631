// Writes the report folder: plots first (report.md says whether gnuplot drew them), then
// report.md and rows.csv, each through a temporary file so a failure leaves no partial file.
#include "validation/report.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <stdexcept>

#include "validation/plots.h"
#include "validation/report_markdown.h"
#include "validation/summary.h"

namespace scalecast::validation {
namespace {

namespace fs = std::filesystem;

void write_atomically(const fs::path& path, const std::function<void(std::ostream&)>& write) {
  const fs::path tmp = path.string() + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) throw std::runtime_error("cannot write " + path.string());
    write(out);
    out.close();
    if (!out) {
      fs::remove(tmp);
      throw std::runtime_error("cannot write " + path.string());
    }
  }
  fs::rename(tmp, path);
}

}  // namespace

void write_report(const ValidationResult& v, const std::string& dir, std::ostream& progress) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (!fs::is_directory(dir, ec))
    throw std::runtime_error("cannot create the report folder " + dir);
  const PlotOutcome plots = write_plots(v, dir, progress);
  if (!plots.problem.empty()) progress << "validate: " << plots.problem << '\n';
  write_atomically(fs::path(dir) / "report.md",
                   [&](std::ostream& o) { write_report_markdown(o, v, plots); });
  write_atomically(fs::path(dir) / "rows.csv", [&](std::ostream& o) { write_rows_csv(o, v); });
  progress << "validate: wrote " << (fs::path(dir) / "report.md").string() << ", rows.csv and "
           << plots.images.size() << " plots\n";
}

}  // namespace scalecast::validation
