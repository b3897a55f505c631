// How a command reports the error it stops on: a user's input exits 2 with one line (naming its
// file first where it is about one), a bug exits 1 as an internal error, anything else exits 1.
#include "sim/io/failure.h"

#include <gtest/gtest.h>

#include <stdexcept>

#include "sim/io/input_error.h"

namespace scalecast {
namespace {

TEST(Failure, InputErrorsExitTwoAndFileErrorsNameTheirFileFirst) {
  const Failure value = describe_failure("predict", InputError("--gpus: expected 1 to 65536, got 0"));
  EXPECT_EQ(value.exit_code, 2);
  EXPECT_EQ(value.line, "scalecast predict: --gpus: expected 1 to 65536, got 0");
  const Failure file = describe_failure("predict", InputError(InputKind::file, "a.yaml:3: model.name: expected ..."));
  EXPECT_EQ(file.exit_code, 2);
  EXPECT_EQ(file.line, "a.yaml:3: model.name: expected ...");
  for (InputKind kind : {InputKind::value, InputKind::output, InputKind::limit, InputKind::refused}) {
    const InputError error(kind, "message");
    EXPECT_EQ(error.kind(), kind);
    EXPECT_FALSE(error.names_its_source());
    EXPECT_EQ(describe_failure("execute", error).line, "scalecast execute: message");
    EXPECT_EQ(describe_failure("execute", error).exit_code, 2);
  }
}

TEST(Failure, BugsAndOtherErrorsExitOne) {
  const Failure bug = describe_failure("predict", std::logic_error("flow over no link"));
  EXPECT_EQ(bug.exit_code, 1);
  EXPECT_EQ(bug.line, "scalecast predict: internal error (a bug of scalecast's, not of the input): flow over no link");
  // A library's std::invalid_argument (std::stoi) that escapes is a bug too: input is checked first.
  EXPECT_EQ(describe_failure("predict", std::invalid_argument("stoi")).exit_code, 1);
  const Failure other = describe_failure("execute", std::runtime_error("connection reset"));
  EXPECT_EQ(other.exit_code, 1);
  EXPECT_EQ(other.line, "scalecast execute: error: connection reset");
}

}  // namespace
}  // namespace scalecast
