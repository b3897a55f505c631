// Option parsing, error reporting, output files and prediction limits for the subcommands.
// Bad input exits 2 with one line; a partial or lone output file is never left behind.
#include "cli/common.h"

#include <algorithm>
#include <filesystem>
#include <fmt/format.h>
#include <iostream>
#include <stdexcept>

#include "sim/io/failure.h"
#include "sim/io/input_error.h"
#include "sim/report/text_table.h"
#include "sim/io/units.h"

namespace scalecast::cli {

std::vector<std::string> path_values(const po::variable_value& v) {
  if (const auto* one = boost::any_cast<std::string>(&v.value())) return {*one};
  if (const auto* many = boost::any_cast<std::vector<std::string>>(&v.value())) return *many;
  return {};
}

namespace {

namespace fs = std::filesystem;

// The same file by inode where both exist; else the same path once made absolute and normal
// (x.json and ./x.json, a/../x.json).
bool same_file(const std::string& a, const std::string& b) {
  std::error_code ec;
  if (fs::exists(a, ec) && fs::exists(b, ec)) return fs::equivalent(a, b, ec);
  return fs::weakly_canonical(fs::absolute(a, ec), ec) == fs::weakly_canonical(fs::absolute(b, ec), ec);
}

// An existing file inside `folder` (at any depth): an output there could be one of the files read.
bool inside(const std::string& file, const std::string& folder) {
  std::error_code ec;
  if (!fs::is_regular_file(file, ec)) return false;
  const fs::path f = fs::weakly_canonical(fs::absolute(file, ec), ec);
  const fs::path d = fs::weakly_canonical(fs::absolute(folder, ec), ec);
  return std::mismatch(d.begin(), d.end(), f.begin(), f.end()).first == d.end();
}

// A device or a pipe (/dev/null, /dev/stdout) that outputs may share: it keeps nothing to lose.
bool is_device(const std::string& path) {
  std::error_code ec;
  const fs::file_status status = fs::status(path, ec);
  return fs::exists(status) && !fs::is_regular_file(status) && !fs::is_directory(status);
}

void refuse_outputs_over_inputs(const po::variables_map& vm, const std::vector<std::string>& outputs) {
  std::vector<std::pair<std::string, std::string>> written;  // option, path
  for (const auto& key : outputs)
    if (vm.count(key))
      for (const auto& path : path_values(vm[key]))
        if (!path.empty() && path != "-") written.emplace_back(key, path);
  for (const auto& [key, value] : vm) {
    if (std::find(outputs.begin(), outputs.end(), key) != outputs.end()) continue;
    for (const auto& path : path_values(value)) {
      std::error_code ec;
      if (fs::is_directory(path, ec)) {
        // An input folder (validate --data): an output may not replace a file in it.
        for (const auto& [out_key, out_path] : written)
          if (inside(out_path, path))
            throw InputError("--" + out_key + " " + out_path + ": that file is in the command's input folder (" +
                             key + " " + path + "): an output never overwrites an input");
        continue;
      }
      if (!fs::is_regular_file(path, ec)) continue;
      for (const auto& [out_key, out_path] : written)
        if (same_file(out_path, path))
          throw InputError("--" + out_key + " " + out_path + ": that file is the command's input (" + key +
                           (out_path == path ? "" : " " + path) + "): an output never overwrites an input");
    }
  }
  for (std::size_t i = 0; i < written.size(); ++i)
    for (std::size_t j = i + 1; j < written.size(); ++j)
      if (same_file(written[i].second, written[j].second) && !is_device(written[j].second))
        throw InputError("--" + written[i].first + " and --" + written[j].first + " both name " +
                         (written[i].second == written[j].second
                                         ? written[j].second
                                         : written[i].second + " and " + written[j].second + ", one file") +
                                    ": each output needs a file of its own");
}

}  // namespace

bool parse_options(const std::string& command, const std::string& synopsis,
                   const po::options_description& options,
                   const po::positional_options_description& positional,
                   const std::vector<std::string>& args, po::variables_map& vm,
                   po::parsed_options* parsed, const std::vector<std::string>& outputs) {
  po::options_description all(options);
  all.add_options()("help,h", "show this help");
  const int style = po::command_line_style::default_style & ~po::command_line_style::allow_guessing;
  po::parsed_options result =
      po::command_line_parser(args).options(all).positional(positional).style(style).run();
  po::store(result, vm);
  if (parsed) *parsed = std::move(result);
  if (vm.count("help")) {
    std::cout << "usage: scalecast " << command << " " << synopsis << "\n\n" << all << '\n';
    return true;
  }
  po::notify(vm);
  refuse_outputs_over_inputs(vm, outputs);
  return false;
}

std::vector<std::string> tokens_without(const po::parsed_options& parsed, const std::vector<std::string>& skip) {
  std::vector<std::string> out;
  for (const po::option& o : parsed.options)
    if (std::find(skip.begin(), skip.end(), o.string_key) == skip.end()) out.insert(out.end(), o.original_tokens.begin(), o.original_tokens.end());
  return out;
}

void check_format(const std::string& format, const std::vector<std::string>& known) {
  if (std::find(known.begin(), known.end(), format) != known.end()) return;
  std::string names;
  for (const auto& k : known) names += (names.empty() ? "" : ", ") + k;
  throw InputError("unknown format '" + format + "' (known: " + names + ")");
}

int guarded(const std::string& command, const std::function<int()>& body) {
  try {
    return body();
  } catch (const po::error& e) {
    std::cerr << "scalecast " << command << ": " << e.what() << " (see --help)\n";
    return 2;
  } catch (const std::exception& e) {
    const Failure failure = describe_failure(command, e);
    std::cerr << failure.line << '\n';
    return failure.exit_code;
  }
}

void write_output(OutputFiles& files, const std::string& path, const std::function<void(std::ostream&)>& write) {
  if (path.empty() || path == "-")
    write(std::cout);
  else
    files.add(path, write);
}

void write_output(const std::string& path, const std::function<void(std::ostream&)>& write) {
  OutputFiles files;
  write_output(files, path, write);
  files.commit();
}

WorkLimits LimitOptions::limits() const {
  WorkLimits l;
  if (!(max_events >= 1))
    throw InputError("--max-events: expected a number >= 1, got " + fmt::format("{:g}", max_events));
  l.max_events = max_events;
  try {
    l.max_memory_bytes = units::parse_bytes(max_memory);
  } catch (const InputError& e) {
    throw InputError(std::string("--max-memory: ") + e.what());
  }
  if (!(l.max_memory_bytes > 0)) throw InputError("--max-memory: expected a size above 0, got '" + max_memory + "'");
  return l;
}

void add_limit_options(po::options_description& options, LimitOptions& limits) {
  options.add_options()
      ("max-events", po::value(&limits.max_events)->default_value(limits.max_events),
       "refuse a run estimated to take more steps than this")
      ("max-memory", po::value(&limits.max_memory)->default_value(limits.max_memory),
       "refuse a run estimated to need more memory than this");
}

}  // namespace scalecast::cli
