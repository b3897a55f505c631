// The measurement readers on real files: nccl-tests output of three eras and launchers (mpirun
// tags inside rows, debug lines, several tests in one log, the 2021 columns), the executor's
// sweep CSV, and format detection that names what it cannot read.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "calibration/measurement_files.h"
#include "calibration/readers/nccl_tests_output.h"
#include "calibration/readers/sweep_csv.h"
#include "sim/io/input_error.h"

namespace scalecast::calibration {
namespace {

using collectives::CollectiveOp;

std::vector<NcclTestsOutput> read(const std::string& name) {
  std::ifstream in(std::string(FIXTURES) + "/" + name);
  return read_nccl_tests(in, name);
}

TEST(NcclTestsOutput, ReadsTaggedOutputWithDebugLines) {
  // mpirun --tag-output prefixes, NCCL INFO lines in between; op from the file name.
  const auto runs = read("aws-g4dn-metal-t4-2x1-efa-nccl2.12.7-allreduce.txt");
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_EQ(runs[0].op, CollectiveOp::all_reduce);
  EXPECT_EQ(runs[0].ranks, 2);
  EXPECT_EQ(runs[0].nodes, 2);
  ASSERT_FALSE(runs[0].rows.empty());
  const NcclTestsRow& last = runs[0].rows.back();
  EXPECT_EQ(last.bytes, 1073741824);
  // algbw as printed = size / time (GB = 1e9 B, time in us).
  EXPECT_NEAR(last.bytes / (last.time_us * 1e3), last.algbw, 0.01 * last.algbw + 0.01);
  const auto samples = nccl_tests_samples(runs[0]);
  EXPECT_EQ(samples.front().nodes, 2);
  EXPECT_EQ(samples.front().gpus_per_node, 1);
}

TEST(NcclTestsOutput, SplitsALogOfSeveralTests) {
  const auto runs = read("xxrjun-h100-1x8-nvswitch-5ops.txt");
  ASSERT_EQ(runs.size(), 5u);
  EXPECT_EQ(runs[0].op, CollectiveOp::all_reduce);
  EXPECT_EQ(runs[1].op, CollectiveOp::all_gather);
  EXPECT_EQ(runs[2].op, CollectiveOp::reduce_scatter);
  for (const auto& r : runs) {
    EXPECT_EQ(r.ranks, 8);
    EXPECT_EQ(r.nodes, 1);
    // busbw = algbw x the op's factor, as nccl-tests prints it.
    for (const auto& row : r.rows)
      EXPECT_NEAR(row.busbw, row.algbw * collectives::bus_factor(r.op, 8), 0.02 * row.busbw + 0.02);
  }
}

TEST(NcclTestsOutput, ReadsTheOlderColumns) {
  const auto runs = read("aws-p4d-a100-2x8-efa-gdr-nccl2.9.9-allreduce-ring-simple.txt");
  ASSERT_FALSE(runs.empty());
  EXPECT_EQ(runs[0].ranks, 16);
  EXPECT_EQ(runs[0].nodes, 2);
  for (const auto& row : runs[0].rows) EXPECT_GT(row.time_us, 0);
}

TEST(NcclTestsOutput, NamesWhatItCannotRead) {
  std::istringstream no_rows("# nThread 1 nGpus 1\n# nothing else\n");
  EXPECT_THROW(read_nccl_tests(no_rows, "x_all_reduce.txt"), InputError);
  std::istringstream no_op("#  size  count  type  redop  root  time  algbw  busbw  #wrong\n"
                           "  1024  256  float  sum  -1  10.0  0.1  0.2  0  10.0  0.1  0.2  0\n");
  EXPECT_THROW(read_nccl_tests(no_op, "mystery.txt"), InputError);
  std::istringstream bad_time("# Collective test starting: all_reduce_perf\n"
                              "  1024  256  float  sum  -1  fast  0.1  0.2  0  10.0  0.1  0.2  0\n");
  try {
    read_nccl_tests(bad_time, "bad.txt");
    FAIL() << "expected an InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("bad.txt:2:"), std::string::npos) << e.what();
  }
  std::istringstream no_devices("# Collective test starting: all_reduce_perf\n"
                                "  1024  256  float  sum  -1  10.0  0.1  0.2  0  10.0  0.1  0.2  0\n");
  const NcclTestsOutput unsized = read_nccl_tests(no_devices, "n.txt").front();
  EXPECT_THROW(nccl_tests_samples(unsized), InputError);
  // Told how many GPUs ran it (calibrate --gpus), it is placed on the scenario's nodes.
  Cluster eight;
  eight.gpus_per_node = 8;
  const auto samples = nccl_tests_samples(unsized, &eight, 16);
  ASSERT_EQ(samples.size(), 1u);
  EXPECT_EQ(samples[0].nodes, 2);
  EXPECT_EQ(samples[0].gpus_per_node, 8);
  // A count that contradicts the device lines is refused.
  std::istringstream two("# Collective test starting: all_reduce_perf\n"
                         "#  Rank  0 Group  0 Pid 1 on host-a device  0 [0x0a] NVIDIA H100\n"
                         "#  Rank  1 Group  0 Pid 2 on host-b device  0 [0x0a] NVIDIA H100\n"
                         "  1024  256  float  sum  -1  10.0  0.1  0.2  0  10.0  0.1  0.2  0\n");
  EXPECT_THROW(nccl_tests_samples(read_nccl_tests(two, "two.txt").front(), &eight, 16), InputError);
}

TEST(MeasurementFiles, TellsFormatsApartAndRefusesOthers) {
  const std::string dir = ::testing::TempDir();
  std::ofstream(dir + "/s.csv") << "op,ranks,transport,implementation,bytes,time_s,algbw_GBps,busbw_GBps,predicted_s\n"
                                   "allreduce,4,gloo,ring,1024,0.0006,0.0017,0.0025,\n";
  EXPECT_EQ(detect_format(dir + "/s.csv"), MeasurementFormat::sweep_csv);
  const auto samples = read_collective_samples(dir + "/s.csv", MeasurementFormat::sweep_csv);
  ASSERT_EQ(samples.size(), 1u);
  EXPECT_EQ(samples[0].nodes, 4);
  EXPECT_EQ(samples[0].algorithm, "ring");
  EXPECT_EQ(detect_format(std::string(FIXTURES) + "/xxrjun-h100-1x8-nvswitch-5ops.txt"), MeasurementFormat::nccl_tests);
  std::ofstream(dir + "/other.txt") << "hello\n";
  EXPECT_THROW(detect_format(dir + "/other.txt"), InputError);
  EXPECT_THROW(detect_format(dir + "/missing.txt"), InputError);
  std::ofstream(dir + "/bad.csv") << "op,ranks,transport,implementation,bytes,time_s,algbw_GBps,busbw_GBps,predicted_s\n"
                                     "allreduce,4,gloo,butterfly,1024,0.0006,0.0017,0.0025,\n";
  EXPECT_THROW(read_sweep_csv(dir + "/bad.csv"), InputError);
}

}  // namespace
}  // namespace scalecast::calibration
