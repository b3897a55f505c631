// Tests of the measured tables and the row-to-scenario map: every row of both published tables
// has a scenario, unit conversion, and one-line errors for malformed input.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "validation/cases.h"
#include "sim/io/csv.h"
#include "sim/io/input_error.h"
#include "validation/measurements.h"
#include "validation/testbeds.h"

namespace scalecast::validation {
namespace {

namespace fs = std::filesystem;

const std::string kData = std::string(SCALECAST_SOURCE_DIR) + "/validation/data";

std::size_t count_table(const std::vector<MeasuredRow>& rows, const std::string& table) {
  std::size_t n = 0;
  for (const auto& r : rows) n += r.table == table ? 1 : 0;
  return n;
}

// A temporary CSV file, removed at the end of the test.
class TempCsv {
 public:
  explicit TempCsv(const std::string& text)
      : path_(fs::temp_directory_path() /
              ("scalecast-validation-" + std::to_string(::getpid()) + "-" +
               ::testing::UnitTest::GetInstance()->current_test_info()->name() + ".csv")) {
    std::ofstream(path_) << text;
  }
  ~TempCsv() { fs::remove(path_); }
  std::string path() const { return path_.string(); }

 private:
  fs::path path_;
};

TEST(Data, BothTablesAreReadWithEveryRow) {
  const auto rows = read_measurements(kData);
  EXPECT_EQ(rows.size(), 180u);
  EXPECT_EQ(count_table(rows, "ddl-benchmarks-2020-05-29"), 168u);
  EXPECT_EQ(count_table(rows, "distml-2021"), 12u);
  EXPECT_EQ(table_names(rows),
            (std::vector<std::string>{"ddl-benchmarks-2020-05-29", "distml-2021"}));
}

TEST(Data, TheMapCoversEveryRowOfBothTables) {
  const auto rows = read_measurements(kData);
  const TestbedMap map = TestbedMap::read(kData);
  std::size_t covered = 0;
  for (const auto& r : rows) {
    EXPECT_NO_THROW(map.find(r)) << r.file << ":" << r.line;
    ++covered;
  }
  EXPECT_EQ(covered, 168u + 12u);
}

TEST(Data, EveryRowBecomesACaseOrAReason) {
  const auto rows = read_measurements(kData);
  const auto cases = make_cases(rows, TestbedMap::read(kData));
  ASSERT_EQ(cases.size(), rows.size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const Case& c = cases[i];
    if (!c.expressible) {
      EXPECT_FALSE(c.reason.empty()) << rows[i].file << ":" << rows[i].line;
      continue;
    }
    EXPECT_EQ(c.scenario.methods, std::vector<std::string>{rows[i].method});
    EXPECT_EQ(c.scenario.gpus, std::vector<int>{rows[i].gpus});
    EXPECT_EQ(c.workload.batch_per_gpu, rows[i].batch_per_gpu);
    EXPECT_NEAR(c.workload.batch_per_gpu / c.workload.compute_s(), rows[i].single_gpu_throughput,
                1e-9 * rows[i].single_gpu_throughput);
  }
}

TEST(Data, WordsPerSecondBecomeSequencesPerSecond) {
  const auto rows = read_measurements(kData);
  bool found = false;
  for (const auto& r : rows) {
    if (r.table != "distml-2021" || r.model != "bert-base" || r.gpus != 12) continue;
    found = true;
    EXPECT_EQ(r.published_unit, "words/s");
    EXPECT_EQ(r.words_per_sample, 128);
    EXPECT_DOUBLE_EQ(r.throughput, 20479.66 / 128);
    EXPECT_DOUBLE_EQ(r.single_gpu_throughput, 2269.57 / 128);
    EXPECT_FALSE(r.has_stddev());
  }
  EXPECT_TRUE(found);
}

TEST(Data, DdlRowsKeepTheirSpread) {
  const auto rows = read_measured_table(kData + "/ddl-benchmarks-2020-05-29.csv");
  ASSERT_FALSE(rows.empty());
  EXPECT_EQ(rows[0].model, "resnet50");
  EXPECT_EQ(rows[0].network, "10GbE-TCP");
  EXPECT_EQ(rows[0].gpus, 4);
  EXPECT_EQ(rows[0].nodes, 1);
  EXPECT_DOUBLE_EQ(rows[0].throughput, 925.02);
  EXPECT_DOUBLE_EQ(rows[0].stddev, 4.42);
  EXPECT_EQ(rows[0].line, 2);
}

TEST(Data, WordsWithoutASentenceLengthAreRejectedWithFileAndLine) {
  const TempCsv csv(
      "system,testbed,gpu,network,model,batch_per_gpu,method,gpus,throughput,unit,"
      "single_gpu_throughput,note\n"
      "distml,AWS,v100,100Gbps,bert-base,8,distml-allreduce,12,20479.66,words/s,2269.57,\n");
  try {
    read_measured_table(csv.path());
    FAIL() << "expected an InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(csv.path() + ":2: note: expected 'sentence length N'"),
              std::string::npos)
        << e.what();
  }
}

TEST(Data, BadNumbersAndUnknownLayoutsAreRejected) {
  const TempCsv bad_number(
      "model,batch_per_gpu,network,method,gpus,nodes,throughput,stddev,single_gpu_throughput\n"
      "resnet50,64,10GbE-TCP,bsp-ps,4,1,fast,1,253.1\n");
  EXPECT_THROW(read_measured_table(bad_number.path()), InputError);
  const TempCsv unknown("a,b\n1,2\n");
  EXPECT_THROW(read_measured_table(unknown.path()), InputError);
  const TempCsv short_row(
      "model,batch_per_gpu,network,method,gpus,nodes,throughput,stddev,single_gpu_throughput\n"
      "resnet50,64\n");
  EXPECT_THROW(read_measured_table(short_row.path()), InputError);
}

TEST(Data, CsvFieldsMayBeQuoted) {
  EXPECT_EQ(split_csv_line("a,\"b, c\",\"d \"\"e\"\"\""),
            (std::vector<std::string>{"a", "b, c", "d \"e\""}));
}

}  // namespace
}  // namespace scalecast::validation
