// The registry of `scalecast` subcommands: each subcommand lives in its own cli/cmd_*.cpp file
// and registers itself with a static Registration, so adding one touches no other file.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace scalecast::cli {

// Arguments after the subcommand name; returns the process exit code
// (0 ok, 1 run-time failure, 2 bad input or usage).
using CommandFn = std::function<int(const std::vector<std::string>& args)>;

struct Command {
  std::string summary;  // one line for `scalecast --help`
  CommandFn run;
};

std::map<std::string, Command>& command_registry();

struct Registration {
  Registration(const std::string& name, const std::string& summary, CommandFn run) {
    command_registry()[name] = Command{summary, std::move(run)};
  }
};

}  // namespace scalecast::cli
