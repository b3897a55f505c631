// The registry of `scalecast` subcommands: each subcommand lives in its own cli/cmd_*.cpp file
// and registers itself with a static Registration, so adding one touches no other file.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "sim/io/work_share.h"

namespace scalecast::cli {

// Arguments after the subcommand name; returns the process exit code
// (0 ok, 1 run-time failure, 2 bad input or usage).
using CommandFn = std::function<int(const std::vector<std::string>& args)>;

// A command that shards (--shard I/N) run by `scalecast merge` with its shards' results.
using MergedFn = std::function<int(const std::vector<std::string>& args, const WorkShare& merged)>;

struct Command {
  std::string summary;  // one line for `scalecast --help`
  CommandFn run;
  MergedFn merged;      // empty for commands that do not shard
};

std::map<std::string, Command>& command_registry();

struct Registration {
  Registration(const std::string& name, const std::string& summary, CommandFn run, MergedFn merged = {}) {
    command_registry()[name] = Command{summary, std::move(run), std::move(merged)};
  }
};

}  // namespace scalecast::cli
