// Option parsing, error reporting and atomic file output for the subcommands.
// Bad input exits 2 with one line; a partial output file is never left behind.
#include "cli/common.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <stdexcept>

#include "sim/input_error.h"

namespace scalecast::cli {

bool parse_options(const std::string& command, const std::string& synopsis,
                   const po::options_description& options,
                   const po::positional_options_description& positional,
                   const std::vector<std::string>& args, po::variables_map& vm,
                   po::parsed_options* parsed) {
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
  return false;
}

std::vector<std::string> tokens_without(const po::parsed_options& parsed, const std::string& skip) {
  std::vector<std::string> out;
  for (const po::option& o : parsed.options)
    if (o.string_key != skip) out.insert(out.end(), o.original_tokens.begin(), o.original_tokens.end());
  return out;
}

int guarded(const std::string& command, const std::function<int()>& body) {
  try {
    return body();
  } catch (const InputError& e) {
    if (!e.names_its_source()) std::cerr << "scalecast " << command << ": ";
    std::cerr << e.what() << '\n';
  } catch (const po::error& e) {
    std::cerr << "scalecast " << command << ": " << e.what() << " (see --help)\n";
  } catch (const std::invalid_argument& e) {
    std::cerr << "scalecast " << command << ": " << e.what() << '\n';
  } catch (const std::exception& e) {
    std::cerr << "scalecast " << command << ": error: " << e.what() << '\n';
    return 1;
  }
  return 2;
}

void write_output(const std::string& path, const std::function<void(std::ostream&)>& write) {
  if (path.empty() || path == "-") {
    write(std::cout);
    return;
  }
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) throw std::runtime_error("cannot write " + path);
    try {
      write(out);
    } catch (...) {
      out.close();
      std::remove(tmp.c_str());
      throw;
    }
    out.close();
    if (!out) {
      std::remove(tmp.c_str());
      throw std::runtime_error("cannot write " + path);
    }
  }
  std::filesystem::rename(tmp, path);
}

}  // namespace scalecast::cli
