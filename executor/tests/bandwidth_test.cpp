// The sweep's bandwidth figures against nccl-tests' own definitions (src/all_reduce.cu and
// src/sendrecv.cu, transcribed below), and against the formulas written in executor/README.md.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "executor/bandwidth.h"
#include "sim/io/input_error.h"

namespace scalecast::executor {
namespace {

// nccl-tests, AllReduceGetBw / SendRecvGetBw, in GB/s (1e9 B/s).
void nccl_tests_allreduce(size_t count, int typesize, double sec, double* alg, double* bus, int nranks) {
  double baseBw = static_cast<double>(count * typesize) / 1.0E9 / sec;
  *alg = baseBw;
  double factor = (static_cast<double>(2 * (nranks - 1))) / (static_cast<double>(nranks));
  *bus = baseBw * factor;
}

void nccl_tests_sendrecv(size_t count, int typesize, double sec, double* alg, double* bus, int) {
  double baseBw = static_cast<double>(count * typesize) / 1.0E9 / sec;
  *alg = baseBw;
  *bus = baseBw * 1;
}

TEST(SweepBandwidth, AgreesWithNcclTests) {
  for (int ranks : {1, 2, 3, 4, 8, 16, 1024})
    for (size_t count : {1ul, 256ul, 1000000ul, 67108864ul})
      for (double sec : {1e-6, 3.7e-4, 0.25, 2.0}) {
        const double bytes = static_cast<double>(count * 4);
        double alg = 0, bus = 0;
        nccl_tests_allreduce(count, 4, sec, &alg, &bus, ranks);
        EXPECT_DOUBLE_EQ(algbw(bytes, sec) / 1e9, alg);
        EXPECT_DOUBLE_EQ(busbw(SweepOp::allreduce, ranks, bytes, sec) / 1e9, bus);
        nccl_tests_sendrecv(count, 4, sec, &alg, &bus, ranks);
        EXPECT_DOUBLE_EQ(busbw(SweepOp::sendrecv, ranks, bytes, sec) / 1e9, bus);
      }
}

TEST(SweepBandwidth, RejectsNonsense) {
  EXPECT_THROW(algbw(1, 0), std::logic_error);
  EXPECT_THROW(busbw_factor(SweepOp::allreduce, 0), std::logic_error);
  EXPECT_THROW(parse_sweep_op("alltoall"), InputError);
  EXPECT_EQ(parse_sweep_op("sendrecv"), SweepOp::sendrecv);
}

TEST(SweepBandwidth, FormulasAreTheOnesInTheReadme) {
  std::ifstream in(SCALECAST_SOURCE_DIR "/executor/README.md");
  ASSERT_TRUE(in) << "executor/README.md is missing";
  std::stringstream text;
  text << in.rdbuf();
  for (const std::string& formula :
       {algbw_formula(), busbw_formula(SweepOp::allreduce), busbw_formula(SweepOp::sendrecv)})
    EXPECT_NE(text.str().find("    " + formula + "\n"), std::string::npos)
        << "executor/README.md does not state '" << formula << "' on a line of its own";
}

}  // namespace
}  // namespace scalecast::executor
