// Helpers shared by subcommands: option parsing with --help, the error-to-exit-code rule, output
// files written all or none (to FILE.tmp, then renamed), and the limits of a prediction.
#pragma once

#include <boost/program_options.hpp>
#include <functional>
#include <ostream>
#include <string>
#include <vector>

#include "sim/io/output_files.h"
#include "sim/backends/work_estimate.h"

namespace scalecast::cli {

namespace po = boost::program_options;

// Parses args into vm; prints help and returns true when --help was given. Options must be
// spelled out in full: an abbreviation (`--loc` for `--local`) is an unknown option, so that no
// command line means something other than what it says. `parsed`, when given, receives the
// options as parsed, for commands that pass some of them on to processes they start.
// `outputs` names the options whose values are files (or folders) the command writes: each is
// refused (exit 2, one line naming both, nothing written) where it is one of the command's inputs
// (any other option's value naming an existing file, compared as the same file by inode, not by
// name), an existing file inside an input folder (validate --data), or the file of another output
// (the same normalized path; a device such as /dev/null may take several).
bool parse_options(const std::string& command, const std::string& synopsis,
                   const po::options_description& options,
                   const po::positional_options_description& positional,
                   const std::vector<std::string>& args, po::variables_map& vm,
                   po::parsed_options* parsed = nullptr, const std::vector<std::string>& outputs = {"output"});

// The command-line tokens of every parsed option but those in `skip` (canonical long names), in
// their original order and spelling: the arguments to hand on to a child process.
std::vector<std::string> tokens_without(const po::parsed_options& parsed, const std::vector<std::string>& skip);

// The path values of an option (one string or a list of them); none for other kinds of value.
std::vector<std::string> path_values(const po::variable_value& value);

// Throws an InputError "unknown format 'F' (known: table, csv)" unless `format` is one of
// `known`, in the order given.
void check_format(const std::string& format, const std::vector<std::string>& known);

// Runs body; maps input errors (InputError of any kind, and bad options) to one line and exit code
// 2, a bug (std::logic_error) to an "internal error" line and other errors to exit code 1.
int guarded(const std::string& command, const std::function<int()>& body);

// Writes through `write` to stdout when path is empty or "-"; otherwise stages the file in
// `files`, which the command commits once every output is complete (sim/io/output_files.h).
void write_output(OutputFiles& files, const std::string& path, const std::function<void(std::ostream&)>& write);
// One output, all or nothing.
void write_output(const std::string& path, const std::function<void(std::ostream&)>& write);

// --max-events and --max-memory: the limits a prediction may not exceed (sim/backends/work_estimate.h).
struct LimitOptions {
  double max_events = WorkLimits{}.max_events;
  std::string max_memory = "8GiB";
  WorkLimits limits() const;  // throws InputError for values that are no limit
};
void add_limit_options(po::options_description& options, LimitOptions& limits);

}  // namespace scalecast::cli
