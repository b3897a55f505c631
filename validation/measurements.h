// Measured throughput tables (validation/data/*.csv) read into one row type in samples/s, with
// the table, testbed network, method, GPU count, spread and single-GPU figure of every row.
#pragma once

#include <string>
#include <vector>

namespace scalecast::validation {

struct MeasuredRow {
  std::string table;    // the file's stem, e.g. "ddl-benchmarks-2020-05-29"
  std::string file;     // path it was read from
  int line = 0;         // line in that file
  std::string model;    // as the table names it (the testbed map resolves it)
  std::string network;  // ddl: the network column; distml: the testbed (lm6, lm1, AWS)
  std::string method;   // a strategy preset name
  int gpus = 0;
  int nodes = 0;  // as published; 0 where the table does not say
  int batch_per_gpu = 0;
  double throughput = 0;             // samples/s over all GPUs
  double stddev = -1;                // samples/s; < 0 where the table gives none
  double single_gpu_throughput = 0;  // samples/s of one GPU, same model and batch
  std::string published_unit;        // "samples/s" or "words/s" as in the file
  int words_per_sample = 0;          // words/s rows: the sentence length that converted them

  bool has_stddev() const { return stddev >= 0; }
};

// The rows of one measured table (one CSV file, ddl-benchmarks or distml layout).
std::vector<MeasuredRow> read_measured_table(const std::string& path);
// Every measured table in the folder (every *.csv except testbeds.csv), sorted by file name.
std::vector<MeasuredRow> read_measurements(const std::string& folder);
// "resnet50 10GbE-TCP bsp-ps 8 GPUs": how reports name a row.
std::string row_label(const MeasuredRow& row);
// The table names in the order their rows appear.
std::vector<std::string> table_names(const std::vector<MeasuredRow>& rows);

}  // namespace scalecast::validation
