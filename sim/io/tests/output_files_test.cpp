// Output files: complete files appear under their name, together; a failure leaves none of them,
// not even those written before it.
#include "sim/io/input_error.h"
#include "sim/io/output_files.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

namespace scalecast {
namespace {

std::filesystem::path scratch(const std::string& name) {
  const auto dir = std::filesystem::temp_directory_path() / ("scalecast_output_test_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  return dir / name;
}

std::string read(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(OutputFiles, WritesAndReplaces) {
  const auto path = scratch("out.csv");
  write_file_atomically(path.string(), [](std::ostream& out) { out << "first\n"; });
  write_file_atomically(path.string(), [](std::ostream& out) { out << "second\n"; });
  EXPECT_EQ(read(path), "second\n");
  EXPECT_FALSE(std::filesystem::exists(path.string() + ".tmp"));
}

TEST(OutputFiles, FailureLeavesNothing) {
  const auto path = scratch("failed.csv");
  std::filesystem::remove(path);
  EXPECT_THROW(write_file_atomically(path.string(),
                                     [](std::ostream& out) {
                                       out << "half";
                                       throw InputError("bad layer name");
                                     }),
               InputError);
  EXPECT_FALSE(std::filesystem::exists(path));
  EXPECT_FALSE(std::filesystem::exists(path.string() + ".tmp"));
  EXPECT_THROW(write_file_atomically("/nonexistent-dir/x.csv", [](std::ostream&) {}), InputError);
}

TEST(OutputFiles, AFileWrittenBeforeAFailingOneIsNotLeft) {
  const auto trace = scratch("trace.json");
  std::filesystem::remove(trace);
  {
    OutputFiles files;
    files.add(trace.string(), [](std::ostream& out) { out << "{}\n"; });
    EXPECT_THROW(files.add("/nonexistent-dir/out.csv", [](std::ostream& out) { out << "rows\n"; }), InputError);
  }
  EXPECT_FALSE(std::filesystem::exists(trace));
  EXPECT_FALSE(std::filesystem::exists(trace.string() + ".tmp"));
}

TEST(OutputFiles, CommitPutsEveryFileInPlace) {
  const auto a = scratch("a.txt"), b = scratch("b.txt");
  OutputFiles files;
  files.add(a.string(), [](std::ostream& out) { out << "a\n"; });
  files.add(b.string(), [](std::ostream& out) { out << "b\n"; });
  files.add(a.string(), [](std::ostream& out) { out << "a again\n"; });
  files.commit();
  EXPECT_EQ(read(a), "a again\n");
  EXPECT_EQ(read(b), "b\n");
}

// A device or a pipe is written as it is: a staged file renamed over /dev/null (as root) would
// replace the device with a plain file. A folder is refused as the output it cannot be.
TEST(OutputFiles, APipeIsWrittenInPlaceAndAFolderRefused) {
  const auto fifo = scratch("pipe");
  std::filesystem::remove(fifo);
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  std::string got;
  std::thread reader([&] { got = read(fifo); });
  write_file_atomically(fifo.string(), [](std::ostream& out) { out << "through the pipe\n"; });
  reader.join();
  EXPECT_EQ(got, "through the pipe\n");
  EXPECT_TRUE(std::filesystem::is_fifo(fifo));
  EXPECT_FALSE(std::filesystem::exists(fifo.string() + ".tmp"));
  EXPECT_THROW(write_file_atomically(scratch("").parent_path().string(), [](std::ostream&) {}), InputError);
}

}  // namespace
}  // namespace scalecast
