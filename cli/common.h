// Helpers shared by subcommands: option parsing with --help, the error-to-exit-code rule, and
// writing an output file atomically (to FILE.tmp, then renamed) so a failure leaves nothing.
#pragma once

#include <boost/program_options.hpp>
#include <functional>
#include <ostream>
#include <string>
#include <vector>

namespace scalecast::cli {

namespace po = boost::program_options;

// Parses args into vm; prints help and returns true when --help was given.
bool parse_options(const std::string& command, const std::string& synopsis,
                   const po::options_description& options,
                   const po::positional_options_description& positional,
                   const std::vector<std::string>& args, po::variables_map& vm);

// Runs body; maps input errors (bad scenario, schedule, profile, units, unknown names, bad
// options) to one line and exit code 2, other errors to exit code 1.
int guarded(const std::string& command, const std::function<int()>& body);

// Writes through `write` to path, or to stdout when path is empty or "-".
void write_output(const std::string& path, const std::function<void(std::ostream&)>& write);

}  // namespace scalecast::cli
