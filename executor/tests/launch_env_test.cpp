// Rank and rendezvous from the environment: torchrun's, Open MPI's and PMI's variables, and the
// one-line errors for what is missing or malformed.
#include <gtest/gtest.h>

#include <map>

#include "executor/launch_env.h"
#include "sim/io/input_error.h"

namespace scalecast::executor {
namespace {

LaunchEnv from(const std::map<std::string, std::string>& vars) {
  return launch_env([&](const char* name) -> const char* {
    auto it = vars.find(name);
    return it == vars.end() ? nullptr : it->second.c_str();
  });
}

const std::map<std::string, std::string> kMaster = {{"MASTER_ADDR", "10.77.0.1"}, {"MASTER_PORT", "29500"}};

std::map<std::string, std::string> with(std::map<std::string, std::string> vars) {
  vars.insert(kMaster.begin(), kMaster.end());
  return vars;
}

TEST(LaunchEnv, Torchrun) {
  const LaunchEnv e = from(with({{"RANK", "3"}, {"WORLD_SIZE", "5"}}));
  EXPECT_EQ(e.rank, 3);
  EXPECT_EQ(e.world_size, 5);
  EXPECT_EQ(e.master_addr, "10.77.0.1");
  EXPECT_EQ(e.master_port, 29500);
  EXPECT_EQ(e.source, "RANK");
}

TEST(LaunchEnv, MpirunVariables) {
  EXPECT_EQ(from(with({{"OMPI_COMM_WORLD_RANK", "1"}, {"OMPI_COMM_WORLD_SIZE", "2"}})).rank, 1);
  EXPECT_EQ(from(with({{"PMI_RANK", "0"}, {"PMI_SIZE", "4"}})).world_size, 4);
  // torchrun's variables win where both are set.
  EXPECT_EQ(from(with({{"RANK", "2"}, {"WORLD_SIZE", "3"}, {"PMI_RANK", "0"}, {"PMI_SIZE", "3"}})).rank, 2);
}

TEST(LaunchEnv, RefusesWhatIsMissingOrMalformed) {
  EXPECT_THROW(from(kMaster), InputError);
  EXPECT_THROW(from(with({{"RANK", "0"}})), InputError);
  EXPECT_THROW(from(with({{"RANK", "4"}, {"WORLD_SIZE", "4"}})), InputError);
  EXPECT_THROW(from(with({{"RANK", "1x"}, {"WORLD_SIZE", "4"}})), InputError);
  EXPECT_THROW(from(with({{"RANK", "-1"}, {"WORLD_SIZE", "4"}})), InputError);
  EXPECT_THROW(from({{"RANK", "0"}, {"WORLD_SIZE", "1"}}), InputError);
  EXPECT_THROW(from({{"RANK", "0"}, {"WORLD_SIZE", "1"}, {"MASTER_ADDR", "h"}, {"MASTER_PORT", "70000"}}),
               InputError);
  try {
    from(with({{"RANK", "x"}, {"WORLD_SIZE", "2"}}));
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("RANK='x'"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace scalecast::executor
