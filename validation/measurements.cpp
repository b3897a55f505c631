// Readers of the two published layouts: ddl-benchmarks (samples/s with a standard deviation)
// and distml (samples/s or words/s, converted to samples/s by the sentence length in the note).
#include "validation/measurements.h"

#include <algorithm>
#include <charconv>
#include <filesystem>

#include "sim/io/csv.h"
#include "sim/io/input_error.h"

namespace scalecast::validation {
namespace {

namespace fs = std::filesystem;

const std::vector<std::string> kDdlColumns = {
    "model",  "batch_per_gpu",        "network", "method", "gpus", "nodes", "throughput",
    "stddev", "single_gpu_throughput"};
const std::vector<std::string> kDistmlColumns = {
    "testbed",    "model", "batch_per_gpu",         "method", "gpus",
    "throughput", "unit",  "single_gpu_throughput", "note"};

MeasuredRow common(const CsvRecord& r, const std::string& table) {
  MeasuredRow row;
  row.table = table;
  row.file = r.file();
  row.line = r.line();
  row.model = r.non_empty("model");
  row.method = r.non_empty("method");
  row.gpus = r.integer("gpus", 1, ranges::kMaxGpus);
  row.batch_per_gpu = r.integer("batch_per_gpu", 1, ranges::kMaxBatch);
  return row;
}

MeasuredRow read_ddl(const CsvRecord& r, const std::string& table) {
  MeasuredRow row = common(r, table);
  row.network = r.non_empty("network");
  row.nodes = r.integer("nodes", 1, ranges::kMaxGpus);
  row.throughput = r.number("throughput", ranges::throughput());
  row.stddev = r.number("stddev", Bound::between(0, 1e9));
  row.single_gpu_throughput = r.number("single_gpu_throughput", ranges::throughput());
  row.published_unit = "samples/s";
  return row;
}

// The N of "sentence length N" in the note: words per sample, in [1, kMaxSequence].
int sentence_length(const CsvRecord& r) {
  const std::string expected = "'sentence length N' (N in [1, " + std::to_string(ranges::kMaxSequence) +
                               "]) to convert words/s to samples/s";
  const std::string& note = r.text("note");
  const std::string phrase = "sentence length ";
  const auto at = note.find(phrase);
  if (at == std::string::npos) r.fail("note", expected);
  const char* begin = note.data() + at + phrase.size();
  int n = 0;
  const auto ec = std::from_chars(begin, note.data() + note.size(), n).ec;
  if (ec != std::errc() || n < 1 || n > ranges::kMaxSequence)
    r.fail("note", expected);
  return n;
}

// words/s = samples/s x words per sample; the note must say "sentence length N".
MeasuredRow read_distml(const CsvRecord& r, const std::string& table) {
  MeasuredRow row = common(r, table);
  row.network = r.non_empty("testbed");
  row.published_unit = r.non_empty("unit");
  double scale = 1;
  if (row.published_unit == "words/s") {
    row.words_per_sample = sentence_length(r);
    scale = 1.0 / row.words_per_sample;
  } else if (row.published_unit != "samples/s") {
    r.fail("unit", "samples/s or words/s");
  }
  row.throughput = r.number("throughput", ranges::throughput()) * scale;
  row.single_gpu_throughput = r.number("single_gpu_throughput", ranges::throughput()) * scale;
  return row;
}

}  // namespace

std::vector<MeasuredRow> read_measured_table(const std::string& path) {
  const CsvFile csv(path);
  const std::string table = fs::path(path).stem().string();
  const bool ddl = csv.has_columns(kDdlColumns);
  if (!ddl && !csv.has_columns(kDistmlColumns))
    throw InputError(InputKind::file, path + ":1: expected the columns of a ddl-benchmarks table (model, network, " +
                    "stddev, ...) or a distml table (testbed, unit, note, ...), got neither");
  std::vector<MeasuredRow> rows;
  for (const CsvRecord& r : csv.records())
    rows.push_back(ddl ? read_ddl(r, table) : read_distml(r, table));
  if (rows.empty()) throw InputError(InputKind::file, path + ": expected measured rows, got none");
  return rows;
}

std::vector<MeasuredRow> read_measurements(const std::string& folder) {
  std::error_code ec;
  if (!fs::is_directory(folder, ec))
    throw InputError(InputKind::file, folder + ": expected a folder of measured tables, got no such folder");
  std::vector<std::string> files;
  for (const auto& entry : fs::directory_iterator(folder)) {
    const fs::path& p = entry.path();
    if (p.extension() == ".csv" && p.filename() != "testbeds.csv") files.push_back(p.string());
  }
  std::sort(files.begin(), files.end());
  if (files.empty()) throw InputError(InputKind::file, folder + ": expected measured tables (*.csv), got none");
  std::vector<MeasuredRow> rows;
  for (const auto& f : files) {
    auto table = read_measured_table(f);
    rows.insert(rows.end(), table.begin(), table.end());
  }
  return rows;
}

std::string row_label(const MeasuredRow& r) {
  return r.model + " " + r.network + " " + r.method + " " + std::to_string(r.gpus) + " GPUs";
}

std::vector<std::string> table_names(const std::vector<MeasuredRow>& rows) {
  std::vector<std::string> names;
  for (const auto& r : rows)
    if (std::find(names.begin(), names.end(), r.table) == names.end()) names.push_back(r.table);
  return names;
}

}  // namespace scalecast::validation
