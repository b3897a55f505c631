// GoogleTest entry point for every suite: each test process gets a temporary directory of its own.
// CTest runs tests in parallel, one process each, so fixed names under /tmp would collide.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <string>
#include <system_error>

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  // TempDir() honours TEST_TMPDIR; the directory is made under the one it would have used.
  std::string pattern = ::testing::TempDir() + "scalecast-test-XXXXXX";
  if (::mkdtemp(pattern.data()) == nullptr) {
    std::cerr << "cannot create a private temporary directory from " << pattern << "\n";
    return 1;
  }
  ::setenv("TEST_TMPDIR", pattern.c_str(), 1);
  const int result = RUN_ALL_TESTS();
  std::error_code ignored;
  std::filesystem::remove_all(pattern, ignored);
  return result;
}
