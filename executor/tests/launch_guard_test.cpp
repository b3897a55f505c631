// `execute --local N` under a process-count guard: however the option is spelled, at most N ranks
// ever run (an abbreviation is refused), and a rank that a launcher started refuses --local.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "process_util.h"

namespace scalecast::executor {
namespace {

using testing::fresh_dir;
using testing::read_text;
using testing::write_schedule;

// Processes descending from `root`, read from /proc (pid -> parent pid). Only processes that were
// forked count (exit signal SIGCHLD): LeakSanitizer's tracer, a clone sharing its parent's memory
// with no exit signal, is a helper task of a process, not a process started by it.
std::set<pid_t> descendants(pid_t root) {
  std::map<pid_t, pid_t> parent;
  std::set<pid_t> forked;
  for (const auto& entry : std::filesystem::directory_iterator("/proc")) {
    const std::string name = entry.path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::ifstream stat(entry.path() / "stat");
    std::string line;
    if (!std::getline(stat, line)) continue;
    const auto close = line.rfind(')');  // the command name may hold spaces
    if (close == std::string::npos) continue;
    std::istringstream fields(line.substr(close + 1));
    std::vector<std::string> field{std::istream_iterator<std::string>(fields), std::istream_iterator<std::string>()};
    // field[0] is stat's 3rd field (state), field[1] the parent, field[35] the 38th (exit signal)
    if (field.size() < 36 || field[0] == "Z") continue;
    const pid_t pid = std::stoi(name);
    parent[pid] = std::stoi(field[1]);
    if (std::stoi(field[35]) == SIGCHLD) forked.insert(pid);
  }
  std::set<pid_t> below;
  bool grew = true;
  while (grew) {
    grew = false;
    for (const auto& [pid, ppid] : parent)
      if ((ppid == root || below.count(ppid)) && below.insert(pid).second) grew = true;
  }
  std::set<pid_t> out;
  for (const pid_t pid : below)
    if (forked.count(pid)) out.insert(pid);
  return out;
}

struct GuardedRun {
  int exit_code = -1;
  size_t most_descendants = 0;
  std::string log;
};

// Runs `scalecast ARGS` in its own process group, polling its descendants; kills the group as
// soon as more than `limit` of them exist at once (a launch that multiplies).
GuardedRun run_guarded(const std::vector<std::string>& args, size_t limit, const std::string& log) {
  const pid_t pid = testing::spawn_cli(args, log, {{"RANK", ""}, {"WORLD_SIZE", ""}, {"MASTER_ADDR", ""}, {"MASTER_PORT", ""}},
                                       true);
  GuardedRun r;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  for (;;) {
    int status = 0;
    if (::waitpid(pid, &status, WNOHANG) == pid) {
      r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
      break;
    }
    r.most_descendants = std::max(r.most_descendants, descendants(pid).size());
    if (r.most_descendants > limit || std::chrono::steady_clock::now() > deadline) {
      ::kill(-pid, SIGKILL);
      ::waitpid(pid, &status, 0);
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  r.log = read_text(log);
  return r;
}

class LaunchGuard : public ::testing::Test {
 protected:
  void SetUp() override {
#ifndef SCALECAST_HAVE_GLOO
    GTEST_SKIP() << "this build has no Gloo transport";
#endif
    dir_ = fresh_dir("launch_guard");
    schedule_ = dir_ + "/s.json";
    write_schedule(schedule_, "wfbp-allreduce", 2, 2);
  }
  std::string dir_, schedule_;
};

TEST_F(LaunchGuard, FullSpellingsRunExactlyTheRanksAsked) {
  for (const std::vector<std::string>& local : {std::vector<std::string>{"--local", "2"}, {"--local=2"}}) {
    std::vector<std::string> args = {"execute", schedule_, "--timeout", "60s"};
    args.insert(args.end(), local.begin(), local.end());
    const GuardedRun r = run_guarded(args, 2, dir_ + "/full.log");
    EXPECT_EQ(r.exit_code, 0) << r.log;
    EXPECT_EQ(r.most_descendants, 2u) << r.log;  // exactly the two ranks, seen while they ran
    EXPECT_NE(r.log.find("steady state"), std::string::npos) << r.log;
  }
}

TEST_F(LaunchGuard, AbbreviationsAreRefusedBeforeAnyRankStarts) {
  for (const char* spelling : {"--loc", "--loca", "--lo", "--l"}) {
    const GuardedRun r = run_guarded({"execute", schedule_, spelling, "2"}, 0, dir_ + "/abbrev.log");
    EXPECT_EQ(r.exit_code, 2) << spelling << ": " << r.log;
    EXPECT_EQ(r.most_descendants, 0u) << spelling;
    EXPECT_NE(r.log.find("unrecognised option"), std::string::npos) << r.log;
  }
}

TEST_F(LaunchGuard, ALaunchedRankRefusesToLaunch) {
  const std::string log = dir_ + "/rank.log";
  const std::string cmd = "RANK=0 WORLD_SIZE=1 " SCALECAST_CLI " execute " + schedule_ + " --local 2 > " + log + " 2>&1";
  const int status = std::system(cmd.c_str());
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 2) << read_text(log);
  EXPECT_NE(read_text(log).find("--local cannot be used by a process a launcher started (RANK is set)"),
            std::string::npos)
      << read_text(log);
}

}  // namespace
}  // namespace scalecast::executor
