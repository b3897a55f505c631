// Faults: a rank that dies or never arrives stops the others within a bounded time, with an error
// naming it; a corrupt or mismatched schedule is refused (exit 2) before any transfer.
#include <gtest/gtest.h>

#include <csignal>
#include <fstream>
#include <thread>

#include "executor/local_launcher.h"
#include "executor/store.h"
#include "sim/formats/schedule_json.h"
#include "process_util.h"

namespace scalecast::executor {
namespace {

using namespace std::chrono_literals;
using testing::fresh_dir;
using testing::read_text;
using testing::Rank;
using testing::run_cli;
using testing::start_rank;
using testing::wait_rank;
using testing::write_schedule;

class Faults : public ::testing::Test {
 protected:
  void SetUp() override {
#ifndef SCALECAST_HAVE_GLOO
    GTEST_SKIP() << "this build has no Gloo transport";
#endif
  }
};

TEST_F(Faults, RankThatDiesStopsTheOthers) {
  const std::string dir = fresh_dir("dies");
  write_schedule(dir + "/s.json", "wfbp-allreduce", 3, 3);
  const int port = free_local_port();
  // Compute stretched so that the run is still going when rank 2 is killed.
  const std::vector<std::string> args = {"execute", dir + "/s.json", "--compute-scale", "20", "--timeout", "30s"};
  std::vector<Rank> ranks;
  for (int r = 0; r < 3; ++r) ranks.push_back(start_rank(args, r, 3, port, dir + "/r" + std::to_string(r) + ".log"));
  // Killed once it has joined the run (its will is in the store), however slowly it started: a
  // rank killed before it arrives is the never-arrives case below, named only after the timeout.
  {
    StoreClient observer("127.0.0.1", port, 30s);
    observer.wait({"arrive/2"}, 30s);
  }
  ::kill(ranks[2].pid, SIGKILL);
  const auto killed = std::chrono::steady_clock::now();
  EXPECT_EQ(wait_rank(ranks[2], 5s), 128 + SIGKILL);
  for (int r = 0; r < 2; ++r) {
    EXPECT_EQ(wait_rank(ranks[r], 15s), 1) << read_text(ranks[r].log);
    EXPECT_NE(read_text(ranks[r].log).find("rank 2"), std::string::npos) << read_text(ranks[r].log);
  }
  EXPECT_LT(std::chrono::steady_clock::now() - killed, 10s) << "far below the 30 s timeout: the store's will";
}

TEST_F(Faults, RankThatNeverArrivesIsNamedAfterTheTimeout) {
  const std::string dir = fresh_dir("absent");
  write_schedule(dir + "/s.json", "wfbp-allreduce", 3, 2);
  const int port = free_local_port();
  const std::vector<std::string> args = {"execute", dir + "/s.json", "--timeout", "2s"};
  const auto start = std::chrono::steady_clock::now();
  std::vector<Rank> ranks;
  for (int r = 0; r < 2; ++r) ranks.push_back(start_rank(args, r, 3, port, dir + "/r" + std::to_string(r) + ".log"));
  for (const Rank& r : ranks) {
    EXPECT_EQ(wait_rank(r, 20s), 1) << read_text(r.log);
    EXPECT_NE(read_text(r.log).find("rank 2 never arrived within 2 s"), std::string::npos) << read_text(r.log);
  }
  EXPECT_LT(std::chrono::steady_clock::now() - start, 10s);
}

TEST_F(Faults, CorruptScheduleOnOneRankIsRefusedEverywhere) {
  const std::string dir = fresh_dir("corrupt");
  write_schedule(dir + "/s.json", "wfbp-allreduce", 2, 2);
  const std::string text = read_text(dir + "/s.json");
  {
    std::ofstream(dir + "/broken.json") << text.substr(0, text.size() / 2);
  }
  const int port = free_local_port();
  const auto start = std::chrono::steady_clock::now();
  Rank r0 = start_rank({"execute", dir + "/s.json", "--timeout", "30s"}, 0, 2, port, dir + "/r0.log");
  Rank r1 = start_rank({"execute", dir + "/broken.json", "--timeout", "30s"}, 1, 2, port, dir + "/r1.log");
  EXPECT_EQ(wait_rank(r1, 20s), 2) << read_text(r1.log);
  EXPECT_NE(read_text(r1.log).find("broken.json: expected valid JSON"), std::string::npos) << read_text(r1.log);
  EXPECT_EQ(wait_rank(r0, 20s), 2) << read_text(r0.log);
  EXPECT_NE(read_text(r0.log).find("rank 1"), std::string::npos) << read_text(r0.log);
  EXPECT_LT(std::chrono::steady_clock::now() - start, 10s);
}

TEST_F(Faults, ScheduleThatDiffersBetweenRanksIsRefused) {
  const std::string dir = fresh_dir("differs");
  write_schedule(dir + "/a.json", "wfbp-allreduce", 2, 2);
  write_schedule(dir + "/b.json", "bsp-allreduce", 2, 2);
  const int port = free_local_port();
  Rank r0 = start_rank({"execute", dir + "/a.json"}, 0, 2, port, dir + "/r0.log");
  Rank r1 = start_rank({"execute", dir + "/b.json"}, 1, 2, port, dir + "/r1.log");
  EXPECT_EQ(wait_rank(r1, 20s), 2) << read_text(r1.log);
  EXPECT_EQ(wait_rank(r0, 20s), 2) << read_text(r0.log);
  EXPECT_NE(read_text(r1.log).find("rank 1's schedule"), std::string::npos) << read_text(r1.log);
  EXPECT_NE(read_text(r1.log).find("differs from rank 0's"), std::string::npos) << read_text(r1.log);
}

TEST_F(Faults, WrongWorldSizeIsRefused) {
  const std::string dir = fresh_dir("world");
  write_schedule(dir + "/s.json", "wfbp-ps", 2, 2);  // 2 GPU ranks + 1 server
  ASSERT_EQ(run_cli("execute " + dir + "/s.json --local 2 > " + dir + "/out.txt 2>&1"), 2);
  EXPECT_EQ(read_text(dir + "/out.txt"), "scalecast execute: " + dir +
                                             "/s.json: the schedule needs 3 ranks (2 GPU ranks + 1 parameter "
                                             "servers), but the run has 2\n")
      << "refused once, before any rank starts";
}

TEST_F(Faults, ScheduleOfAnotherFormatVersionIsRefused) {
  const std::string dir = fresh_dir("version");
  write_schedule(dir + "/s.json", "wfbp-allreduce", 2, 2);
  std::string text = read_text(dir + "/s.json");
  const std::string current = "\"version\": " + std::to_string(kScheduleFormatVersion);
  text.replace(text.find(current), current.size(), "\"version\": 9");
  std::ofstream(dir + "/s.json") << text;
  ASSERT_EQ(run_cli("execute " + dir + "/s.json --local 2 > " + dir + "/out.txt 2>&1"), 2);
  EXPECT_EQ(read_text(dir + "/out.txt"), dir + "/s.json: /version: expected " +
                                             std::to_string(kScheduleFormatVersion) +
                                             " (the version this scalecast reads), got '9'\n");
}

TEST_F(Faults, NoRankInTheEnvironmentIsAUsageError) {
  const std::string dir = fresh_dir("noenv");
  write_schedule(dir + "/s.json", "wfbp-allreduce", 2, 2);
  ASSERT_EQ(run_cli("execute " + dir + "/s.json > " + dir + "/out.txt 2>&1"), 2);
  EXPECT_NE(read_text(dir + "/out.txt").find("no rank in the environment"), std::string::npos);
}

}  // namespace
}  // namespace scalecast::executor
