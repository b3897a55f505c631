// Atomic output files: complete files appear under their name, failures leave nothing.
#include "profiler/atomic_file.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace scalecast::profiler {
namespace {

std::filesystem::path scratch(const std::string& name) {
  const auto dir = std::filesystem::temp_directory_path() /
                   ("scalecast_profiler_test_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  return dir / name;
}

TEST(AtomicFile, WritesAndReplaces) {
  const auto path = scratch("out.csv");
  write_file_atomically(path.string(), [](std::ostream& out) { out << "first\n"; });
  write_file_atomically(path.string(), [](std::ostream& out) { out << "second\n"; });
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_EQ(text.str(), "second\n");
  EXPECT_FALSE(std::filesystem::exists(path.string() + ".tmp"));
}

TEST(AtomicFile, FailureLeavesNothing) {
  const auto path = scratch("failed.csv");
  std::filesystem::remove(path);
  EXPECT_THROW(write_file_atomically(path.string(),
                                     [](std::ostream& out) {
                                       out << "half";
                                       throw std::invalid_argument("bad layer name");
                                     }),
               std::invalid_argument);
  EXPECT_FALSE(std::filesystem::exists(path));
  EXPECT_FALSE(std::filesystem::exists(path.string() + ".tmp"));
  EXPECT_THROW(write_file_atomically("/nonexistent-dir/x.csv", [](std::ostream&) {}),
               std::runtime_error);
}

}  // namespace
}  // namespace scalecast::profiler
