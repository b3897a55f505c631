// The `scalecast` command: dispatches to a registered subcommand and turns every error into one
// readable line on stderr with exit code 2 (bad input) or 1 (failure while running).
#include <iostream>
#include <string>
#include <vector>

#include "cli/command.h"

namespace scalecast::cli {

std::map<std::string, Command>& command_registry() {
  static std::map<std::string, Command> registry;
  return registry;
}

}  // namespace scalecast::cli

namespace {

void usage(std::ostream& out) {
  out << "usage: scalecast COMMAND [ARGS...]   (scalecast COMMAND --help for its options)\n\n"
         "Predicts how data-parallel training scales on a cluster, and checks predictions\n"
         "against measurements.\n\ncommands:\n";
  for (const auto& [name, cmd] : scalecast::cli::command_registry())
    out << "  " << name << std::string(name.size() < 12 ? 12 - name.size() : 1, ' ') << cmd.summary
        << '\n';
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty() || args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
    usage(args.empty() ? std::cerr : std::cout);
    return args.empty() ? 2 : 0;
  }
  auto& registry = scalecast::cli::command_registry();
  auto it = registry.find(args[0]);
  if (it == registry.end()) {
    std::cerr << "scalecast: unknown command '" << args[0] << "'\n";
    usage(std::cerr);
    return 2;
  }
  return it->second.run(std::vector<std::string>(args.begin() + 1, args.end()));
}
